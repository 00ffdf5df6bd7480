/*
 * racetests: exec from a process with other threads (and SIGKILL while
 * exec waits for them), and signals sent by tid.
 */
#include "racetests.h"

#define EXEC_STATUS       42       /* what `racetests -exit` returns for the exec tests */
#define EXEC_DEADLINE_MS  20000    /* an exec that takes longer has hung */

/* ------------------------------------------- exec with other threads */

static volatile int spin_started;

static long spinner(void *arg)
{
    (void)arg;
    spin_started = 1;
    for (;;)
        __asm__ volatile("" ::: "memory");
    return 0;
}

static long sleeper(void *arg)
{
    (void)arg;
    sleep(LONG_SLEEP_MS);
    return 0;
}

static long joiner(void *arg)
{
    long v;
    thread_join((int)(uintptr_t)arg, &v);   /* the main thread: it execs instead */
    return 0;
}

static void exec_self_exit(void)
{
    char code[8];
    snprintf(code, sizeof code, "%d", EXEC_STATUS);
    char *argv[] = { "racetests", "-exit", code, NULL };
    int rc = exec("racetests", argv);
    printf("%s: FAILED exec: %s\n", current_test, strerror(rc));
    exit(TEST_FAIL_EXIT);
}

enum other { SPINNING, SLEEPING, JOINING };

static void exec_child(enum other kind)
{
    if (kind == SPINNING) {
        start_thread(spinner, NULL);
        while (!spin_started)
            yield();
    } else if (kind == SLEEPING) {
        start_thread(sleeper, NULL);
    } else {
        start_thread(joiner, (void *)(uintptr_t)gettid());
    }
    sleep(SETTLE_MS);
    exec_self_exit();
}

/* exec replaces a process that has other threads: they leave, whatever
 * they are doing, and the new program runs. If exec hangs, SIGKILL must
 * still end the process. */
static void exec_with(enum other kind, const char *what)
{
    int pid = fork();
    CHECK(pid >= 0, "fork: %s", strerror(pid));
    if (pid == 0)
        exec_child(kind);
    int status = wait_deadline(pid, EXEC_DEADLINE_MS);
    if (status == -1) {
        kill(pid, SIGKILL);
        bool ended = wait_deadline(pid, EXEC_DEADLINE_MS) != -1;
        fail("exec with a %s thread did not finish in %d ms%s", what, EXEC_DEADLINE_MS,
             ended ? "" : "; SIGKILL did not end it either");
    }
    expect_exit(what, status, EXEC_STATUS);
}

void execspin(void)  { exec_with(SPINNING, "spinning"); }
void execsleep(void) { exec_with(SLEEPING, "sleeping"); }
void execjoin(void)  { exec_with(JOINING, "joining"); }

#define PAGEOUT_PAGES  2048    /* 8 MiB of dirty pages: a long page-out ... */
#define PAGEOUT_SHARE  3       /* ... or a third of free memory, if that is less */
#define EXECKILL_FILE  "race-execkill"
#define EXECKILL_LEAD_MS 20    /* from "about to exec" to the kill */
static volatile int pageout_started;

static long pageout_pages;

static long pager(void *arg)
{
    char *mem = arg;
    pageout_started = 1;
    vmctl(FL_VMCTL_PAGEOUT, mem, (size_t)pageout_pages * PAGE_BYTES);
    return 0;
}

static void execkill_child(void)
{
    struct fl_sysinfo si;
    expect("sysinfo", sysinfo(&si), 0);
    pageout_pages = (long)si.frames_free / PAGEOUT_SHARE;
    if (pageout_pages > PAGEOUT_PAGES)
        pageout_pages = PAGEOUT_PAGES;
    char *mem = sbrk(pageout_pages * PAGE_BYTES);
    CHECK(!ptr_error(mem), "sbrk: %s", strerror(ptr_error(mem)));
    for (long i = 0; i < pageout_pages; i++)
        mem[i * PAGE_BYTES] = 1;
    start_thread(pager, mem);
    while (!pageout_started)
        yield();
    int fd = open(EXECKILL_FILE, O_WRONLY | O_CREAT);
    CHECK(fd >= 0, "open: %s", strerror(fd));
    close(fd);
    exec_self_exit();
}

/* The process is killed while exec waits for another thread, which is
 * busy in the kernel writing pages out (not interruptible): the kill
 * wins, exec gives up, and the process ends with SIGKILL. */
void execkill(void)
{
    unlink(EXECKILL_FILE);
    int pid = fork();
    CHECK(pid >= 0, "fork: %s", strerror(pid));
    if (pid == 0)
        execkill_child();
    int fd;
    long start = uptime();
    while ((fd = open(EXECKILL_FILE, O_RDONLY)) < 0) {
        CHECK(uptime() - start < DEADLINE_MS, "the child never got to its exec");
        sleep(POLL_MS / 2);
    }
    close(fd);
    sleep(EXECKILL_LEAD_MS);
    expect("kill", kill(pid, SIGKILL), 0);
    int status = wait_deadline(pid, EXEC_DEADLINE_MS);
    CHECK(status != -1, "SIGKILL did not end a process in exec within %d ms", EXEC_DEADLINE_MS);
    CHECK(!FL_WIFEXITED(status), "exec finished before the kill (exit status %d)",
          FL_WEXITSTATUS(status));
    expect("killed by", FL_WTERMSIG(status), SIGKILL);
    expect("unlink", unlink(EXECKILL_FILE), 0);
}

/* ------------------------------------------------------ signals by tid */

#define NO_SUCH_ID 999999

static long return_tid(void *arg)
{
    (void)arg;
    return gettid();
}

/* tkill checks the tid before it looks at the signal: SIGKILL to a tid
 * that is not one of the caller's live threads is ESRCH and kills nobody. */
void tkillcheck(void)
{
    expect("tkill(no such tid, SIGKILL)", tkill(NO_SUCH_ID, SIGKILL), -ESRCH);
    expect("tkill(0, SIGKILL)", tkill(0, SIGKILL), -ESRCH);
    expect("tkill(-1, SIGKILL)", tkill(-1, SIGKILL), -ESRCH);
    expect("kill(no such pid, SIGKILL)", kill(NO_SUCH_ID, SIGKILL), -ESRCH);
    /* another process's thread: the child tries ours */
    int me = gettid();
    int pid = fork();
    CHECK(pid >= 0, "fork: %s", strerror(pid));
    if (pid == 0) {
        expect("tkill(another process's thread, SIGKILL)", tkill(me, SIGKILL), -ESRCH);
        expect("tkill(another process's thread, SIGTERM)", tkill(me, SIGTERM), -ESRCH);
        exit(0);
    }
    expect_exit("child that tkills our thread", wait_deadline(pid, DEADLINE_MS), 0);
    /* a thread of ours that has exited (not joined yet) */
    int tid = start_thread(return_tid, NULL);
    sleep(SETTLE_MS);
    expect("tkill(exited thread, SIGKILL)", tkill(tid, SIGKILL), -ESRCH);
    join(tid, tid);
}

static void tkill_self(void)
{
    tkill(gettid(), SIGKILL);
    sleep(LONG_SLEEP_MS);
}

/* SIGKILL by tid to oneself still ends the whole process. */
void tkillself(void)
{
    expect_killed("tkill(self, SIGKILL)", tkill_self, SIGKILL);
}
