/*
 * racetests: disk requests of short-lived processes, what sbrk, mmap,
 * fork and exec promise under mm=swap, and paging under pressure under
 * mm=paging.
 */
#include "racetests.h"

#define ROUNDS_PAGEOUT    200      /* short-lived children paging out one page each */
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
void diskwake(void)
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
void swaphuge(void)
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
void swapgrow(void)
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
void swapexec(void)
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

void pagingstarve(void)
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
