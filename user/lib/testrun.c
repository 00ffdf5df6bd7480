/*
 * testrun: the in-guest test runner shared by usertests and sigtests
 * (see testrun.h for the conventions a test follows).
 */
#include "testrun.h"

/* Long enough for the slowest test on a loaded host; a test that takes
 * longer has hung. */
#define TEST_TIMEOUT_MS   60000
/* How often the runner looks whether the child has finished. */
#define POLL_MS           10
/* Room for one FAILED line's reason. */
#define MESSAGE_MAX       200

const char *current_test = "tests";
long test_timeout_ms = TEST_TIMEOUT_MS;

static const char *decimal(long r, char *buf, size_t size)
{
    snprintf(buf, size, "%ld", r);
    return buf;
}

const char *(*test_result_name)(long r, char *buf, size_t size) = decimal;

_Noreturn void fail(const char *fmt, ...)
{
    char msg[MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    printf("%s: FAILED %s\n", current_test, msg);
    exit(TEST_FAIL_EXIT);
}

void expect(const char *what, long got, long want)
{
    if (got != want) {
        char g[TEST_RESULT_NAME_MAX], w[TEST_RESULT_NAME_MAX];
        fail("%s: got %s, expected %s", what, test_result_name(got, g, sizeof g),
             test_result_name(want, w, sizeof w));
    }
}

/* Runs one test in a child; returns true if it passed. */
static bool run_test(const struct test *t)
{
    int pid = fork();
    if (pid < 0) {
        printf("%s: FAILED fork: %s\n", t->name, strerror(pid));
        return false;
    }
    if (pid == 0) {
        current_test = t->name;
        t->fn();
        exit(0);
    }

    /* Poll rather than block, so that a hung test can be killed. */
    long start = uptime();
    int status = 0;
    for (;;) {
        int r = wait_pid(pid, &status, WNOHANG);
        if (r == pid)
            break;
        if (r < 0) {
            printf("%s: FAILED wait_pid: %s\n", t->name, strerror(r));
            return false;
        }
        if (uptime() - start > test_timeout_ms) {
            kill(pid, SIGKILL);
            wait_pid(pid, &status, 0);
            printf("%s: FAILED timed out after %ld ms\n", t->name, test_timeout_ms);
            return false;
        }
        sleep(POLL_MS);
    }

    if (FL_WIFEXITED(status) && FL_WEXITSTATUS(status) == 0) {
        printf("%s: OK\n", t->name);
        return true;
    }
    if (!FL_WIFEXITED(status))
        printf("%s: FAILED killed by signal %d\n", t->name, FL_WTERMSIG(status));
    else if (FL_WEXITSTATUS(status) != TEST_FAIL_EXIT)
        printf("%s: FAILED exit status %d\n", t->name, FL_WEXITSTATUS(status));
    return false;   /* TEST_FAIL_EXIT: the test printed why */
}

static const struct test *find_test(const struct test *tests, size_t ntests, const char *name)
{
    for (size_t i = 0; i < ntests; i++)
        if (strcmp(tests[i].name, name) == 0)
            return &tests[i];
    return NULL;
}

int run_tests(const struct test *tests, size_t ntests, int argc, char *argv[])
{
    int failed = 0;
    if (argc > 1) {
        for (int i = 1; i < argc; i++) {
            const struct test *t = find_test(tests, ntests, argv[i]);
            if (!t) {
                printf("%s: FAILED no such test\n", argv[i]);
                failed++;
            } else if (!run_test(t)) {
                failed++;
            }
        }
    } else {
        for (size_t i = 0; i < ntests; i++)
            if (!run_test(&tests[i]))
                failed++;
    }
    return failed;
}

int tests_summary(int failed)
{
    printf(failed ? "SOME TESTS FAILED\n" : "ALL TESTS PASSED\n");
    return failed ? 1 : 0;
}

int status_of_child(void (*fn)(void))
{
    int pid = fork();
    CHECK(pid >= 0, "fork: %s", strerror(pid));
    if (pid == 0) {
        fn();
        exit(0);
    }
    int status = 0;
    int r = wait_pid(pid, &status, 0);
    expect("wait_pid for a child", r, pid);
    return status;
}

void expect_killed(const char *what, void (*fn)(void), int sig)
{
    int status = status_of_child(fn);
    CHECK(!FL_WIFEXITED(status), "%s: child was not killed (exit status %d)",
          what, FL_WEXITSTATUS(status));
    CHECK(FL_WTERMSIG(status) == sig, "%s: child killed by signal %d, expected %d",
          what, FL_WTERMSIG(status), sig);
}
