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
#include "ulib.h"
#include "testrun.h"

#define ROUNDS_OPEN       3000     /* open/close pairs per child (openclose) */
#define ROUNDS_FD         20000    /* iterations per thread in the fd-table races */
#define ROUNDS_CLOSE      1500     /* rounds of two threads closing one fd */
#define ROUNDS_PAGEOUT    200      /* short-lived children paging out one page each */
#define READ_CHUNK        16
#define FILE_BYTES        64       /* what readreopen's file holds */
#define EXEC_STATUS       42       /* what `racetests -exit` returns for the exec tests */
#define LONG_SLEEP_MS     60000    /* far longer than any test takes */
#define SETTLE_MS         100      /* time for a thread to reach its loop or its sleep */
#define DEADLINE_MS       15000    /* a child that takes longer has hung */
#define EXEC_DEADLINE_MS  20000    /* an exec that takes longer has hung */
#define POLL_MS           10
#define SPIN_YIELD_EVERY  64       /* a barrier spinner yields now and then (one hart) */
#define PAGE_BYTES        4096
#define MAX_PROCS_SEEN    64       /* procinfo entries read at once: the process table */
#define MIB               (1024L * 1024L)
#define SWAP_GROW_STEP    (256L * 1024L)   /* sbrk step while looking for the limit */
#define SWAP_GROW_MAX     (256L * MIB)     /* stop looking past this */
#define HUGE_REQUEST      (68L * MIB)      /* more than mem=8M or 16M can ever hold */
#define THRASH_CHILDREN   6
#define THRASH_OVERCOMMIT 2                /* the children want twice memory */
#define THRASH_MS         4000     /* each child pages this long: they overlap */
#define THRASH_OWN_PAGES  64
#define THRASH_SALT_STEP  37
#define THRASH_DEADLINE_MS 120000
#define THRASH_NO_MEMORY  3                /* thrash_child's exit codes */
#define THRASH_BAD_PAGE   4

/* ---------------------------------------------------------------- helpers */

/* Waits up to ms for pid; returns its status, or -1 if it is still
 * running then (it is left running: the caller decides). */
static int wait_deadline(int pid, long ms)
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

static void expect_exit(const char *what, int status, int code)
{
    CHECK(status != -1, "%s: still running after %d ms", what, DEADLINE_MS);
    CHECK(FL_WIFEXITED(status), "%s: killed by signal %d", what, FL_WTERMSIG(status));
    CHECK(FL_WEXITSTATUS(status) == code, "%s: exit status %d, expected %d",
          what, FL_WEXITSTATUS(status), code);
}

static int start_thread(thread_fn fn, void *arg)
{
    int tid = thread_create(fn, arg);
    CHECK(tid > 0, "thread_create: %s", strerror(tid));
    return tid;
}

static void join(int tid, long want)
{
    long v = -1;
    expect("thread_join", thread_join(tid, &v), 0);
    expect("thread result", v, want);
}

/* Two threads meet here before each round, so their calls overlap. */
struct barrier { int arrived; int round; };

static void barrier_wait(struct barrier *b, int parties)
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

static long file_size(const char *name)
{
    int fd = open(name, O_RDONLY);
    CHECK(fd >= 0, "open %s: %s", name, strerror(fd));
    struct fl_stat st;
    expect("fstat", fstat(fd, &st), 0);
    expect("close", close(fd), 0);
    return (long)st.size;
}

/* ------------------------------------------------ files of two processes */

#define OPENCLOSE_FILE "race-openclose"

static void openclose_child(void)
{
    for (int i = 0; i < ROUNDS_OPEN; i++) {
        int fd = open(OPENCLOSE_FILE, O_RDWR | O_CREAT);
        CHECK(fd >= 0, "open round %d: %s", i, strerror(fd));
        expect("close", close(fd), 0);
    }
}

/* Two processes open and close one ram file as fast as they can: the last
 * reference to an open file must be dropped with the file still whole. */
static void openclose(void)
{
    int pids[2];
    for (int i = 0; i < 2; i++) {
        pids[i] = fork();
        CHECK(pids[i] >= 0, "fork: %s", strerror(pids[i]));
        if (pids[i] == 0) {
            openclose_child();
            exit(0);
        }
    }
    for (int i = 0; i < 2; i++)
        expect_exit("opener", wait_deadline(pids[i], DEADLINE_MS), 0);
    expect("unlink", unlink(OPENCLOSE_FILE), 0);
}

/* ------------------------------------------ one fd table, several threads */

#define REOPEN_FILE "race-reopen"

struct reopen { int fd; int stop; int bad; long got; };

static long reader(void *arg)
{
    struct reopen *r = arg;
    char buf[READ_CHUNK];
    while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
        long n = read(r->fd, buf, sizeof buf);
        if (n != -EBADF && (n < 0 || n > READ_CHUNK))
            r->got = n, r->bad++;
    }
    return 0;
}

/* One thread reads an fd while another closes it and opens the file again
 * (which takes the same, lowest free, number): a read in progress must
 * keep its file alive until it is done. */
static void readreopen(void)
{
    int fd = open(REOPEN_FILE, O_RDWR | O_CREAT | O_TRUNC);
    CHECK(fd >= 0, "open: %s", strerror(fd));
    char data[FILE_BYTES];
    memset(data, 'r', sizeof data);
    expect("write", write(fd, data, sizeof data), sizeof data);
    struct reopen r = { .fd = fd };
    int tid = start_thread(reader, &r);
    for (int i = 0; i < ROUNDS_FD; i++) {
        expect("close", close(fd), 0);
        expect("reopen (the lowest free fd)", open(REOPEN_FILE, O_RDONLY), fd);
    }
    __atomic_store_n(&r.stop, 1, __ATOMIC_RELEASE);
    join(tid, 0);
    CHECK(r.bad == 0, "%d reads returned something other than data or EBADF (last %ld)", r.bad, r.got);
    expect("close", close(fd), 0);
    expect("unlink", unlink(REOPEN_FILE), 0);
}

struct installer { const char *name; int bad; char why[80]; };

static long install_loop(void *arg)
{
    struct installer *in = arg;
    for (int i = 0; i < ROUNDS_FD && !in->bad; i++) {
        int fd = open(in->name, O_WRONLY | O_CREAT | O_APPEND);
        int copy = fd >= 0 ? dup(fd) : -1;
        long w = copy >= 0 ? write(copy, "x", 1) : -1;
        int c1 = fd >= 0 ? close(fd) : -1;
        int c2 = copy >= 0 ? close(copy) : -1;
        if (fd < 0 || copy < 0 || w != 1 || c1 != 0 || c2 != 0) {
            snprintf(in->why, sizeof in->why, "round %d: open %d dup %d write %ld close %d %d",
                     i, fd, copy, w, c1, c2);
            in->bad = 1;
        }
    }
    return 0;
}

/* Two threads open, dup, write and close their own files at once: an fd
 * number is never handed to both, so every byte lands in its own file and
 * every close finds what it opened. */
static void fdinstall(void)
{
    struct installer a = { .name = "race-install-a" }, b = { .name = "race-install-b" };
    unlink(a.name);
    unlink(b.name);
    int ta = start_thread(install_loop, &a), tb = start_thread(install_loop, &b);
    join(ta, 0);
    join(tb, 0);
    CHECK(!a.bad, "thread a: %s", a.why);
    CHECK(!b.bad, "thread b: %s", b.why);
    expect("bytes in file a", file_size(a.name), ROUNDS_FD);
    expect("bytes in file b", file_size(b.name), ROUNDS_FD);
    expect("unlink a", unlink(a.name), 0);
    expect("unlink b", unlink(b.name), 0);
}

struct closer { struct barrier *bar; int *fd; int ok; };

static long close_loop(void *arg)
{
    struct closer *c = arg;
    for (int i = 0; i < ROUNDS_CLOSE; i++) {
        barrier_wait(c->bar, 3);          /* the main thread opened the fd */
        if (close(*c->fd) == 0)
            c->ok++;
        barrier_wait(c->bar, 3);          /* both closed */
    }
    return 0;
}

/* Two threads close the same fd at the same moment: exactly one close
 * succeeds, and the reference a dup holds is left alone. */
static void closetwice(void)
{
    const char *name = "race-closetwice";
    int keep = open(name, O_RDWR | O_CREAT | O_TRUNC);
    CHECK(keep >= 0, "open: %s", strerror(keep));
    struct barrier bar = { 0, 0 };
    int fd = -1;
    struct closer a = { &bar, &fd, 0 }, b = { &bar, &fd, 0 };
    int ta = start_thread(close_loop, &a), tb = start_thread(close_loop, &b);
    for (int i = 0; i < ROUNDS_CLOSE; i++) {
        fd = dup(keep);
        CHECK(fd >= 0, "dup: %s", strerror(fd));
        barrier_wait(&bar, 3);
        barrier_wait(&bar, 3);
        CHECK(a.ok + b.ok == i + 1, "round %d: %d closes of one fd succeeded", i, a.ok + b.ok - i);
        expect("write through the kept fd", write(keep, "k", 1), 1);
    }
    join(ta, 0);
    join(tb, 0);
    expect("bytes written through the kept fd", file_size(name), ROUNDS_CLOSE);
    expect("close", close(keep), 0);
    expect("unlink", unlink(name), 0);
}

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

static void execspin(void)  { exec_with(SPINNING, "spinning"); }
static void execsleep(void) { exec_with(SLEEPING, "sleeping"); }
static void execjoin(void)  { exec_with(JOINING, "joining"); }

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
static void execkill(void)
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
static void tkillcheck(void)
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
static void tkillself(void)
{
    expect_killed("tkill(self, SIGKILL)", tkill_self, SIGKILL);
}

/* ------------------------------------- disk requests of short-lived processes */

/*
 * diskwake on two harts keeps the boot hart (0), which takes the disk's
 * interrupts, busy with a spinning process, and runs the test and its
 * children on hart 1 only. So the boot hart touches each child's kernel
 * stack (where the child's disk request lives) without ever running the
 * child; slot after slot, as the children come and go, it must never see
 * an old stack's memory there.
 */
#define BOOT_HART 0
#define AWAY_HART 1

static void pageout_child(int i, int nharts)
{
    if (nharts > 1)
        expect("set_affinity", set_affinity(0, AWAY_HART), 0);
    char *page = mmap(NULL, PAGE_BYTES, FL_PROT_READ | FL_PROT_WRITE, FL_MAP_ANON);
    CHECK(!ptr_error(page), "mmap: %s", strerror(ptr_error(page)));
    page[0] = (char)i;
    expect("vmctl pageout", vmctl(FL_VMCTL_PAGEOUT, page, PAGE_BYTES), 1);
    expect("page read back", page[0], (char)i);
}

/* Yields this hart (1) until child pid has started here: the boot hart
 * is busy spinning, so it is not offered the child, and an idle hart 1
 * takes it at once. */
static void start_here(int pid)
{
    struct fl_procinfo ps[MAX_PROCS_SEEN];
    for (;;) {
        int n = procinfo(ps, MAX_PROCS_SEEN);
        bool waiting = false;
        for (int i = 0; i < n; i++)
            waiting |= ps[i].pid == pid && ps[i].state == FL_PS_RUNNABLE;
        if (!waiting)
            return;
        yield();
    }
}

static int start_boot_hart_spinner(void)
{
    int pid = fork();
    CHECK(pid >= 0, "fork: %s", strerror(pid));
    if (pid == 0) {
        set_affinity(0, BOOT_HART);
        for (;;)
            __asm__ volatile("" ::: "memory");
    }
    return pid;
}

/* Many short-lived children, each writing one dirty page to the disk and
 * reading it back: every request's completion reaches its waiter. */
static void diskwake(void)
{
    struct fl_sysinfo si;
    expect("sysinfo", sysinfo(&si), 0);
    int nharts = (int)si.nharts, spinner = 0;
    if (nharts > 1) {
        expect("set_affinity(self)", set_affinity(0, AWAY_HART), 0);
        spinner = start_boot_hart_spinner();
    }
    int failed_child = -1, failed_pid = 0, status = 0;
    for (int i = 0; i < ROUNDS_PAGEOUT && failed_child < 0; i++) {
        int pid = fork();
        CHECK(pid >= 0, "fork: %s", strerror(pid));
        if (pid == 0) {
            pageout_child(i, nharts);
            exit(0);
        }
        if (nharts > 1)
            start_here(pid);
        status = wait_deadline(pid, DEADLINE_MS);
        if (status == -1 || !FL_WIFEXITED(status) || FL_WEXITSTATUS(status) != 0)
            failed_child = i, failed_pid = pid;
    }
    if (spinner) {
        kill(spinner, SIGKILL);
        wait_pid(spinner, NULL, 0);
    }
    if (status == -1)
        fail("child %d (pid %d) still waiting for its disk request after %d ms", failed_child,
             failed_pid, DEADLINE_MS);
    if (failed_child >= 0)
        expect_exit("pageout child", status, 0);
}

/* ------------------------------------------- promises under mm=swap */

/* A process under mm=swap runs only wholly in memory, so sbrk and mmap
 * may never promise it more than memory can hold: a huge request is
 * ENOMEM at once, not a kill at first touch. */
static void swaphuge(void)
{
    void *old = sbrk(0);
    expect("sbrk(68 MiB)", ptr_error(sbrk(HUGE_REQUEST)), -ENOMEM);
    CHECK(sbrk(0) == old, "a refused sbrk moved the break");
    void *m = mmap(NULL, HUGE_REQUEST, FL_PROT_READ | FL_PROT_WRITE, FL_MAP_ANON);
    expect("mmap(68 MiB)", ptr_error(m), -ENOMEM);
}

static void rewrite_pages(char *start, long bytes, int salt)
{
    for (long off = 0; off < bytes; off += PAGE_BYTES) {
        CHECK(start[off] == (char)(off / PAGE_BYTES + salt), "page at +%ld lost its byte", off);
        start[off] = (char)(off / PAGE_BYTES + salt + 1);
    }
}

/* Grows the heap step by step until sbrk says no, then touches every page
 * it was given: all of it must be delivered. A fork of the whole of it is
 * either refused or delivered too (the two cannot be in memory at once:
 * the swapper takes turns). */
static void swapgrow(void)
{
    struct fl_sysinfo si;
    expect("sysinfo", sysinfo(&si), 0);
    char *start = sbrk(0);
    long got = 0;
    while (got < SWAP_GROW_MAX && !ptr_error(sbrk(SWAP_GROW_STEP)))
        got += SWAP_GROW_STEP;
    CHECK(got >= MIB, "sbrk granted only %ld bytes", got);
    CHECK(got < SWAP_GROW_MAX, "sbrk granted %ld bytes and more", got);
    long frames_bytes = (long)(si.frames_total * si.page_size);
    CHECK(got <= frames_bytes, "sbrk granted %ld bytes, memory is %ld", got, frames_bytes);
    for (long off = 0; off < got; off += PAGE_BYTES)
        start[off] = (char)(off / PAGE_BYTES);
    rewrite_pages(start, got, 0);
    int pid = fork();
    CHECK(pid >= 0 || pid == -ENOMEM, "fork: %s", strerror(pid));
    if (pid == 0) {
        rewrite_pages(start, got, 1);
        exit(0);
    }
    if (pid > 0)
        expect_exit("child with a copy of it all", wait_deadline(pid, DEADLINE_MS), 0);
    rewrite_pages(start, got, 1);
}

#define BIGIMAGE_RAN 77        /* bigimage's status when it runs */

static void exec_big(void)
{
    char *argv[] = { "bigimage", NULL };
    expect("exec of an image larger than memory", exec("bigimage", argv), -ENOMEM);
}

/* exec refuses a program that could never be wholly in memory. */
static void swapexec(void)
{
    int status = status_of_child(exec_big);
    CHECK(!(FL_WIFEXITED(status) && FL_WEXITSTATUS(status) == BIGIMAGE_RAN),
          "bigimage was executed");
    CHECK(FL_WIFEXITED(status) && FL_WEXITSTATUS(status) == 0, "child: wait status 0x%x", status);
}

/* --------------------------------------- paging under pressure */

/* Children that page without end (one of them also pages all of its
 * memory out at once, again and again), and one process that mostly sleeps, so
 * that its pages are the first to go and each time it wakes it must fault
 * them back in while every other user page belongs to a process in the
 * middle of its own fault. A fault there must wait for memory, not call
 * it exhausted after a fixed number of tries (that killed the sleeper
 * with "out of memory" with 60 MiB of swap space free). */
static void thrash_child(long pages, int salt, bool pager)
{
    char *m = mmap(NULL, (size_t)pages * PAGE_BYTES, FL_PROT_READ | FL_PROT_WRITE, FL_MAP_ANON);
    if (ptr_error(m))
        exit(THRASH_NO_MEMORY);
    long start = uptime();
    for (int pass = 0; uptime() - start < THRASH_MS; pass++) {
        for (long i = 0; i < pages; i++) {
            char *b = m + i * PAGE_BYTES;
            if (pass > 0 && *b != (char)(i + salt + pass - 1))
                exit(THRASH_BAD_PAGE);
            *b = (char)(i + salt + pass);
        }
        /* The first child also sends all of it to the disk at once: one
         * call that holds its address space for hundreds of writes. */
        if (pager)
            vmctl(FL_VMCTL_PAGEOUT, m, (unsigned long)pages * PAGE_BYTES);
    }
    exit(0);
}

static void pagingstarve(void)
{
    struct fl_sysinfo si;
    struct fl_vmstat before, after;
    expect("sysinfo", sysinfo(&si), 0);
    expect("vmstat", vmstat(&before), 0);
    /* Together the children want twice memory. */
    long pages = (long)si.frames_total * THRASH_OVERCOMMIT / THRASH_CHILDREN;
    int pids[THRASH_CHILDREN];
    for (int c = 0; c < THRASH_CHILDREN; c++) {
        pids[c] = fork();
        CHECK(pids[c] >= 0, "fork: %s", strerror(pids[c]));
        if (pids[c] == 0)
            thrash_child(pages, c * THRASH_SALT_STEP, c == 0);
    }
    /* The sleeper: this process, with a few pages of its own to check. */
    static char mine[THRASH_OWN_PAGES * PAGE_BYTES];
    for (int i = 0; i < THRASH_OWN_PAGES; i++)
        mine[i * PAGE_BYTES] = (char)i;
    int left = THRASH_CHILDREN;
    long start = uptime();
    while (left > 0) {
        CHECK(uptime() - start < THRASH_DEADLINE_MS, "the children did not finish in %d ms",
              THRASH_DEADLINE_MS);
        sleep(POLL_MS);
        for (int i = 0; i < THRASH_OWN_PAGES; i++)
            CHECK(mine[i * PAGE_BYTES] == (char)i, "own page %d changed", i);
        int status = 0;
        int pid = wait_pid(-1, &status, WNOHANG);
        CHECK(pid >= 0, "wait_pid: %s", strerror(pid));
        if (pid == 0)
            continue;
        left--;
        CHECK(FL_WIFEXITED(status), "a thrashing child (pid %d) was killed by signal %d", pid,
              FL_WTERMSIG(status));
        CHECK(FL_WEXITSTATUS(status) != THRASH_BAD_PAGE, "child %d read back a wrong page", pid);
        CHECK(FL_WEXITSTATUS(status) == 0, "child %d: exit status %d", pid,
              FL_WEXITSTATUS(status));
    }
    expect("vmstat", vmstat(&after), 0);
    CHECK(after.pageouts > before.pageouts, "nothing was paged out: no pressure");
    expect("out-of-memory kills", (long)(after.oom_kills - before.oom_kills), 0);
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
