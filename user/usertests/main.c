/*
 * usertests [NAME...]: in-guest tests of the kernel's system calls.
 *
 * The tests run under the shared runner (lib/testrun.h): each in a forked
 * child, reporting "NAME: OK" or "NAME: FAILED why". The last line is
 * "ALL TESTS PASSED" or "SOME TESTS FAILED".
 *
 * This file is the runner and the table, which fixes the order the tests
 * run in. The tests are in files by subject: proc.c (processes, exec,
 * time, procinfo), mem.c (sbrk, malloc, mmap), badargs.c (pointers and
 * values the kernel must refuse), signals.c (faults and kills), threads.c
 * and files.c; checks.c has the checks they share.
 *
 * Leak check: the free-frame count is read before and after the whole run
 * (once every child is reaped) and must be equal; a difference counts as
 * the failed test "leaks". The runner itself never uses the heap, and its
 * own pages are touched before each reading (prefault_self), so that its
 * demand-paged text, data and stack do not move the count.
 *
 * Expected error codes, where the headers leave a choice, are stated next
 * to each check. The general rules this file assumes of the kernel:
 *   - a user pointer is checked over its whole range before any byte
 *     moves: NULL, a kernel address, a range running past the top of user
 *     space or wrapping around, or memory the access may not touch (text
 *     for a kernel write) give -EFAULT, and nothing is partly copied;
 *   - a path is copied up to FL_PATH_MAX bytes: no NUL within them is
 *     -ENAMETOOLONG, running into unmapped memory first is -EFAULT;
 *   - fds share an offset across dup() and fork(), as in UNIX.
 */
#include "usertests.h"

#define SETTLE_TRIES      50       /* frees can lag the last wait: retry the count */
#define SETTLE_MS         100
#define STACK_PREFAULT    (32 * 1024)

int runner_pid;

static const struct test tests[] = {
    TEST(getpidtest),  TEST(forkexit),    TEST(forkmany),     TEST(waitnochild),
    TEST(execerrors),  TEST(execargs),    TEST(sbrkgrow),     TEST(sbrkshrink),
    TEST(sbrkhuge),    TEST(mallocall),   TEST(mallocmerge),  TEST(badreadwrite),
    TEST(badpath),     TEST(badexec),     TEST(badwait),      TEST(badstructs),
    TEST(badfd),       TEST(badsyscall),  TEST(faults),       TEST(killsleeper),
    TEST(killspinner), TEST(threadcount), TEST(threadjoin),   TEST(threadexit),
    TEST(affinity),    TEST(sleeptime),   TEST(initrdread),   TEST(ramfile),
    TEST(initrdwrite), TEST(devnull),     TEST(fstattypes),   TEST(readdirlist),
    TEST(duptest),     TEST(fdlimit),     TEST(forkfd),       TEST(procinfotest),
    TEST(sysinfotest), TEST(mmapbasic),   TEST(mmapfixed),    TEST(munmappartial),
    TEST(mmaperrors),  TEST(mmapfork),    TEST(zeropage),
};

extern char __text_start[], __data_start[], _end[];

/* Makes every page of this program resident (and its stack down to a
 * depth the runner never exceeds), so a free-frame reading is not moved
 * by the runner's own first touches. Data is written back unchanged:
 * a write is what allocates a private page. */
static void __attribute__((noinline)) prefault_self(void)
{
    for (volatile char *p = __text_start; p < __data_start; p += PAGE_SIZE)
        (void)*p;
    for (volatile char *p = __data_start; p < _end; p += PAGE_SIZE)
        *p = *p;
    volatile char stack[STACK_PREFAULT];
    for (size_t i = 0; i < sizeof stack; i += PAGE_SIZE)
        stack[i] = 0;
}

static uint64_t free_frames(void)
{
    struct fl_sysinfo info;
    int err = sysinfo(&info);
    if (err < 0) {
        printf("usertests: sysinfo: %s\n", strerror(err));
        return 0;
    }
    return info.frames_free;
}

#define TEST_FILE_PREFIX "ut-"

/* Removes the RAM files tests create (all named "/ut-..."), in case a
 * failed test left one behind: its pages would otherwise count as a leak
 * on top of the failure itself. */
static void remove_test_files(void)
{
    static struct fl_dirent d;
    static char path[FL_PATH_MAX + 1];
    for (unsigned long i = 0; i < MAX_DIR_ENTRIES && readdir(i, &d) > 0; i++) {
        d.name[sizeof d.name - 1] = '\0';
        const char *name = bare(d.name);
        if (strncmp(name, TEST_FILE_PREFIX, strlen(TEST_FILE_PREFIX)) != 0)
            continue;
        snprintf(path, sizeof path, "/%s", name);
        if (unlink(path) == 0) {
            printf("usertests: removed %s left by a failed test\n", path);
            i = (unsigned long)-1;   /* the listing has shifted: start over */
        }
    }
}

/* A child that does nothing, so that whatever the kernel sets up lazily
 * on a first fork and exit is in place before the first reading. */
static void warm_up(void)
{
    int pid = fork();
    if (pid == 0)
        exit(0);
    if (pid > 0)
        wait_pid(pid, NULL, 0);
}

int main(int argc, char *argv[])
{
    runner_pid = getpid();
    current_test = "usertests";
    test_result_name = result_name;
    printf("usertests starting\n");
    warm_up();
    prefault_self();
    /* The warm-up child's last thread frees its kernel stack on whichever
     * hart switches away from it, a moment after wait() returns: read
     * until two readings agree. */
    uint64_t before = free_frames();
    for (int try = 0; try < SETTLE_TRIES; try++) {
        sleep(SETTLE_MS);
        uint64_t again = free_frames();
        if (again == before)
            break;
        before = again;
    }

    int failed = run_tests(tests, ARRAY_SIZE(tests), argc, argv);

    remove_test_files();

    /* Every child has been reaped, but the kernel may finish freeing a
     * little later (another hart, a reaper thread): give it time. */
    uint64_t after = 0;
    for (int try = 0; try < SETTLE_TRIES; try++) {
        prefault_self();
        after = free_frames();
        if (after == before)
            break;
        sleep(SETTLE_MS);
    }
    printf("usertests: free frames before %lu after %lu\n",
           (unsigned long)before, (unsigned long)after);
    if (after != before) {
        printf("leaks: FAILED %ld frames not returned\n", (long)(before - after));
        failed++;
    } else {
        printf("leaks: OK\n");
    }

    return tests_summary(failed);
}
