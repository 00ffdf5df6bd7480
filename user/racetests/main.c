/*
 * racetests [NAME...]: in-guest tests of races between system calls and
 * of what the kernel promises under them: files opened and closed by two
 * processes at once, one descriptor table shared by threads, exec from a
 * process with other threads (and SIGKILL while it waits for them), tkill
 * with a tid that is not the caller's, disk requests from short-lived
 * processes on two harts, and sbrk/mmap promises under mm=swap.
 *
 * Same runner as usertests (lib/testrun.h): each test runs in a forked
 * child and reports "NAME: OK" or "NAME: FAILED why"; the last line is
 * "ALL TESTS PASSED" or "SOME TESTS FAILED". The races need two harts to
 * bite reliably; on one hart the same tests run and must pass as well.
 *
 * `racetests -exit N` exits with status N at once: the exec tests exec it,
 * so a finished exec shows as that status.
 */
#include "racetests.h"

#define SPIN_YIELD_EVERY  64       /* a barrier spinner yields now and then (one hart) */

/* ---------------------------------------------------------------- helpers */

/* Waits up to ms for pid; returns its status, or -1 if it is still
 * running then (it is left running: the caller decides). */
int wait_deadline(int pid, long ms)
{
    long start = uptime();
    for (;;) {
        int status = 0;
        int r = wait_pid(pid, &status, WNOHANG);
        if (r == pid)
            return status;
        CHECK(r == 0, "wait_pid(%d): %s", pid, strerror(r));
        if (uptime() - start > ms)
            return -1;
        sleep(POLL_MS);
    }
}

void expect_exit(const char *what, int status, int code)
{
    CHECK(status != -1, "%s: still running after %d ms", what, DEADLINE_MS);
    CHECK(FL_WIFEXITED(status), "%s: killed by signal %d", what, FL_WTERMSIG(status));
    CHECK(FL_WEXITSTATUS(status) == code, "%s: exit status %d, expected %d",
          what, FL_WEXITSTATUS(status), code);
}

int start_thread(thread_fn fn, void *arg)
{
    int tid = thread_create(fn, arg);
    CHECK(tid > 0, "thread_create: %s", strerror(tid));
    return tid;
}

void join(int tid, long want)
{
    long v = -1;
    expect("thread_join", thread_join(tid, &v), 0);
    expect("thread result", v, want);
}

void barrier_wait(struct barrier *b, int parties)
{
    int round = __atomic_load_n(&b->round, __ATOMIC_ACQUIRE);
    if (__atomic_add_fetch(&b->arrived, 1, __ATOMIC_ACQ_REL) == parties) {
        __atomic_store_n(&b->arrived, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&b->round, round + 1, __ATOMIC_RELEASE);
        return;
    }
    for (int spins = 1; __atomic_load_n(&b->round, __ATOMIC_ACQUIRE) == round; spins++)
        if (spins % SPIN_YIELD_EVERY == 0)
            yield();
}

long file_size(const char *name)
{
    int fd = open(name, O_RDONLY);
    CHECK(fd >= 0, "open %s: %s", name, strerror(fd));
    struct fl_stat st;
    expect("fstat", fstat(fd, &st), 0);
    expect("close", close(fd), 0);
    return (long)st.size;
}

/* ------------------------------------------------------------- runner */

static const struct test tests[] = {
    TEST(openclose), TEST(readreopen), TEST(fdinstall), TEST(closetwice),
    TEST(execspin),  TEST(execsleep),  TEST(execjoin),  TEST(execkill),
    TEST(tkillcheck), TEST(tkillself), TEST(diskwake),
};

/* Only where processes are swapped whole (mm=swap): run when named, or
 * by default when the kernel says it is the memory manager. */
static const struct test swap_tests[] = {
    TEST(swaphuge), TEST(swapgrow), TEST(swapexec),
};

/* Only under mm=paging, where the children may together want more than
 * memory: run when named (tests/test_races.py boots mem=8M for it). */
static const struct test paging_tests[] = {
    TEST(pagingstarve),
};

static bool running_swap(void)
{
    struct fl_vmstat st;
    return vmstat(&st) == 0 && strcmp(st.mm, "swap") == 0;
}

int main(int argc, char *argv[])
{
    if (argc == 3 && strcmp(argv[1], "-exit") == 0)
        return atoi(argv[2]);
    current_test = "racetests";
    printf("racetests starting\n");
    int failed = 0;
    if (argc > 1) {
        /* Each name from whichever table has it. */
        for (int i = 1; i < argc; i++) {
            char *one[] = { argv[0], argv[i], NULL };
            bool swap = false, paging = false;
            for (size_t k = 0; k < ARRAY_SIZE(swap_tests); k++)
                swap |= strcmp(swap_tests[k].name, argv[i]) == 0;
            for (size_t k = 0; k < ARRAY_SIZE(paging_tests); k++)
                paging |= strcmp(paging_tests[k].name, argv[i]) == 0;
            failed += swap ? run_tests(swap_tests, ARRAY_SIZE(swap_tests), 2, one)
                    : paging ? run_tests(paging_tests, ARRAY_SIZE(paging_tests), 2, one)
                    : run_tests(tests, ARRAY_SIZE(tests), 2, one);
        }
    } else {
        failed = run_tests(tests, ARRAY_SIZE(tests), 1, argv);
        if (running_swap())
            failed += run_tests(swap_tests, ARRAY_SIZE(swap_tests), 1, argv);
    }
    return tests_summary(failed);
}
