/*
 * testrun: the in-guest test runner shared by usertests and sigtests.
 *
 * Each test is a function run in a forked child, so a test that crashes
 * or hangs ends only itself. A test prints "NAME: FAILED why" and exits
 * TEST_FAIL_EXIT at its first failed check (fail, CHECK, expect); the
 * runner prints "NAME: OK" when the child exits 0, and the failure itself
 * when the child was killed, timed out or exited otherwise. The output is
 * what the host-side test suites parse, so its format is fixed.
 */
#ifndef FAULTLINE_USER_TESTRUN_H
#define FAULTLINE_USER_TESTRUN_H

#include "ulib.h"

/* A test's exit code for "I printed my FAILED line". */
#define TEST_FAIL_EXIT 1

struct test {
    const char *name;
    void      (*fn)(void);
};

#define TEST(fn) { #fn, fn }

/* The name fail() puts in front of FAILED: the program's own until a test
 * starts, then the test's. A test may set it for a child it forks. */
extern const char *current_test;

/* How long a test may run before the runner ends it as hung; a program
 * with a longer test (one it is told to run longer) may raise it. */
extern long test_timeout_ms;

/* How expect() shows a value (into buf, returning it). The default prints
 * it in decimal; a program may set another before running its tests. */
extern const char *(*test_result_name)(long r, char *buf, size_t size);

/* Room test_result_name gets: "-ENAMETOOLONG" or a decimal long. */
#define TEST_RESULT_NAME_MAX 24

_Noreturn __attribute__((format(__printf__, 1, 2))) void fail(const char *fmt, ...);

#define CHECK(cond, ...)  do { if (!(cond)) fail(__VA_ARGS__); } while (0)

/* Fails with "what: got G, expected W" unless got == want. */
void expect(const char *what, long got, long want);

/* Runs the tests named in argv[1..], or every test when there are none;
 * a name not in the table fails as "NAME: FAILED no such test". Returns
 * the number that failed. */
/* Forks; the child runs fn and exits 0 if fn returns. Returns the wait status. */
int  status_of_child(void (*fn)(void));
/* Fails the test unless fn, run in a child, is killed by signal sig. */
void expect_killed(const char *what, void (*fn)(void), int sig);

int run_tests(const struct test *tests, size_t ntests, int argc, char *argv[]);

/* Prints the last line, "ALL TESTS PASSED" or "SOME TESTS FAILED", and
 * returns the program's exit code. */
int tests_summary(int failed);

#endif
