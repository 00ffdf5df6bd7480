/*
 * upager: a demand pager at user level (docs/ulf.md).
 *
 *   upager [-a] [-f FRAMES] [-p fifo|clock|lru] PROG [ARGS...]
 *
 * Runs PROG with its heap (with -a: all its demand-zero memory, heap,
 * stack and anonymous mappings), and that of the processes it forks,
 * managed by this process: the kernel grants FRAMES frames (default 64),
 * and every fault on a heap page comes here as a message. A page is
 * filled with zeros on its first touch and from its copy in this
 * process's own memory (the backing store) after that; when no frame is
 * free, the policy picks a victim, which is unloaded and, if it was
 * written, copied out first. A page is loaded read-only on a read, so a
 * later write faults once more (an upgrade) and tells the pager the page
 * is dirty. Replacement:
 *
 *   fifo   the frame loaded longest ago
 *   clock  second chance: the hand unloads a referenced page (keeping its
 *          frame) to clear its reference, which the next touch sets again
 *          with a minor fault (the VAX's software reference bits)
 *   lru    the page whose last fault is oldest; every FRAMES faults all
 *          pages are unloaded so that the next touch of each is seen
 *          (sampled LRU)
 *
 * At the end it prints PROG's exit status, the fault counts and its own
 * timing, and exits with PROG's status.
 */
#include "ulib.h"

#define PAGE           4096UL
#define DEFAULT_FRAMES 64
#define MAX_PAGES      16384        /* pages it will keep track of */
#define USAGE_EXIT     2
#define FAILED_EXIT    1
#define BUSY_TRIES     1000         /* a frame whose last loan is ending */
#define US_PER_MS      1000

enum policy { FIFO, CLOCK, LRU };
static const char *const policy_names[] = { "fifo", "clock", "lru" };

struct page {
    int      pid;                   /* 0: slot unused */
    uint64_t vpn;
    int      frame;                 /* -1: not in a frame */
    char    *store;                 /* its copy, once it was written back */
};

struct frame {
    struct page *pg;                /* NULL: free */
    bool     loaded;                /* mapped in its process now */
    bool     ref;                   /* touched since the hand last passed */
    bool     dirty;                 /* written since it was filled */
    uint64_t stamp;                 /* last fault on it (lru) */
};

static struct {
    enum policy policy;
    int attach_flags;               /* FL_ULF_HEAP, or FL_ULF_SPACE with -a */
    int nframes, used, hand;
    char *pool;
    struct frame *frames;
    struct page *pages;             /* open addressing over MAX_PAGES */
    uint64_t now, since_sample;
    uint64_t faults, major, minor, upgrades, evictions, writebacks, zero_fills;
} pg;

static char *frame_addr(int i)
{
    return pg.pool + (unsigned long)i * PAGE;
}

static struct page *lookup(int pid, uint64_t vpn)
{
    uint64_t h = (vpn * 0x9e3779b97f4a7c15ULL + (uint64_t)pid) % MAX_PAGES;
    for (uint64_t k = 0; k < MAX_PAGES; k++) {
        struct page *p = &pg.pages[(h + k) % MAX_PAGES];
        if (p->pid == pid && p->vpn == vpn)
            return p;
        if (!p->pid) {
            *p = (struct page){ .pid = pid, .vpn = vpn, .frame = -1 };
            return p;
        }
    }
    die("upager: more than %d pages to keep", MAX_PAGES);
}

static void unload(struct frame *f)
{
    if (!f->loaded)
        return;
    long r = ulf_unload(f->pg->pid, (void *)(f->pg->vpn * PAGE), PAGE);
    /* -ESRCH: its process is gone, and the loan with it. */
    if (r < 0 && r != -ESRCH)
        die("upager: ulf_unload: %s", strerror((int)r));
    f->loaded = false;
}

static void evict(int i)
{
    struct frame *f = &pg.frames[i];
    unload(f);
    if (f->dirty) {
        if (!f->pg->store) {
            f->pg->store = malloc(PAGE);
            if (!f->pg->store)
                die("upager: no memory for the backing store");
        }
        memcpy(f->pg->store, frame_addr(i), PAGE);
        pg.writebacks++;
    }
    f->pg->frame = -1;
    *f = (struct frame){ 0 };
    pg.evictions++;
}

static int choose_clock(void)
{
    for (;;) {
        int i = pg.hand;
        pg.hand = (pg.hand + 1) % pg.nframes;
        struct frame *f = &pg.frames[i];
        if (!f->ref)
            return i;
        f->ref = false;
        unload(f);                  /* the next touch sets ref again */
    }
}

static int choose_lru(void)
{
    int best = 0;
    for (int i = 1; i < pg.nframes; i++)
        if (pg.frames[i].stamp < pg.frames[best].stamp)
            best = i;
    return best;
}

/* A frame for a page not in one: a free one, or the policy's victim. */
static int take_frame(void)
{
    if (pg.used < pg.nframes)
        return pg.used++;
    int i;
    switch (pg.policy) {
    case CLOCK:
        i = choose_clock();
        break;
    case LRU:
        i = choose_lru();
        break;
    default:
        i = pg.hand;
        pg.hand = (pg.hand + 1) % pg.nframes;
        break;
    }
    evict(i);
    return i;
}

/* lru: unload everything now and then, so references are seen again. */
static void lru_sample(void)
{
    if (pg.policy != LRU || ++pg.since_sample < (uint64_t)pg.nframes)
        return;
    pg.since_sample = 0;
    for (int i = 0; i < pg.used; i++)
        unload(&pg.frames[i]);
}

static int load(const struct fl_ulf_msg *m, int i, int prot)
{
    void *va = (void *)(m->addr & ~(PAGE - 1));
    int r;
    /* A frame whose process just exited is free once its space is gone. */
    for (int k = 0; (r = ulf_load(m->pid, va, frame_addr(i), prot)) == -EBUSY && k < BUSY_TRIES; k++)
        yield();
    return r;
}

/* Serves one fault; returns how to answer it. */
static int handle(const struct fl_ulf_msg *m)
{
    bool write = m->access == FL_ULF_WRITE;
    struct page *p = lookup(m->pid, m->addr / PAGE);
    pg.faults++;
    int i = p->frame;
    if (i >= 0) {
        struct frame *f = &pg.frames[i];
        if (write && !f->dirty)
            pg.upgrades++;
        else
            pg.minor++;
        f->dirty |= write;
    } else {
        i = take_frame();
        if (p->store) {
            memcpy(frame_addr(i), p->store, PAGE);
        } else {
            memset(frame_addr(i), 0, PAGE);
            pg.zero_fills++;
        }
        pg.frames[i] = (struct frame){ .pg = p, .dirty = write };
        p->frame = i;
        pg.major++;
    }
    struct frame *f = &pg.frames[i];
    f->ref = f->loaded = true;
    f->stamp = ++pg.now;
    /* Read-only until written: the write's fault marks it dirty. */
    int prot = FL_PROT_READ | (f->dirty ? FL_PROT_WRITE : 0);
    int r = load(m, i, prot);
    if (r < 0) {
        fprintf(STDERR_FILENO, "upager: ulf_load(pid %d, 0x%lx): %s\n", m->pid,
                (unsigned long)m->addr, strerror(r));
        f->loaded = false;
        return FL_ULF_KILL;
    }
    lru_sample();
    return FL_ULF_RETRY;
}

static _Noreturn void usage(void)
{
    fprintf(STDERR_FILENO, "usage: upager [-a] [-f FRAMES] [-p fifo|clock|lru] PROG [ARGS...]\n");
    exit(USAGE_EXIT);
}

static int parse(int argc, char *argv[])
{
    pg.nframes = DEFAULT_FRAMES;
    pg.policy = CLOCK;
    pg.attach_flags = FL_ULF_HEAP;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "-a")) {
            pg.attach_flags = FL_ULF_SPACE;
        } else if (!strcmp(argv[i], "-f") && i + 1 < argc) {
            char *end;
            long n = strtol(argv[++i], &end, 10);
            if (*end || n < 1 || n > FL_ULF_FRAME_QUOTA)
                usage();
            pg.nframes = (int)n;
        } else if (!strcmp(argv[i], "-p") && i + 1 < argc) {
            const char *name = argv[++i];
            int k = 0;
            while (k < (int)ARRAY_SIZE(policy_names) && strcmp(name, policy_names[k]))
                k++;
            if (k == (int)ARRAY_SIZE(policy_names))
                usage();
            pg.policy = (enum policy)k;
        } else {
            usage();
        }
    }
    if (i == argc)
        usage();
    return i;
}

static void report(const char *prog, int status, uint64_t real_ms, const struct fl_times *t)
{
    if (FL_WIFEXITED(status))
        printf("upager: %s exited with status %d\n", prog, FL_WEXITSTATUS(status));
    else
        printf("upager: %s was killed by signal %d\n", prog, FL_WTERMSIG(status));
    printf("upager: faults %lu (major %lu, minor %lu, upgrades %lu), evictions %lu, "
           "writebacks %lu, zero-fills %lu\n", (unsigned long)pg.faults,
           (unsigned long)pg.major, (unsigned long)pg.minor, (unsigned long)pg.upgrades,
           (unsigned long)pg.evictions, (unsigned long)pg.writebacks,
           (unsigned long)pg.zero_fills);
    uint64_t busy_us = t->utime_us + t->stime_us;
    printf("upager: %d frames, %s; %lu ms real, handler %lu ms user + %lu ms system, "
           "%lu us per fault\n", pg.nframes, policy_names[pg.policy], (unsigned long)real_ms,
           (unsigned long)(t->utime_us / US_PER_MS), (unsigned long)(t->stime_us / US_PER_MS),
           (unsigned long)(pg.faults ? busy_us / pg.faults : 0));
}

int main(int argc, char *argv[])
{
    int first = parse(argc, argv);
    uint64_t start = uptime();
    /* The child first, so that it copies none of the tables or frames. */
    int pid = ulf_fork_held();
    if (pid < 0)
        die("upager: fork: %s", strerror(pid));
    if (pid == 0) {
        int err = exec_command(argv[first], &argv[first]);
        fprintf(STDERR_FILENO, "upager: %s: %s\n", argv[first], strerror(err));
        exit(FAILED_EXIT);
    }
    pg.frames = malloc(sizeof *pg.frames * (size_t)pg.nframes);
    pg.pages = malloc(sizeof *pg.pages * MAX_PAGES);
    pg.pool = ulf_grant((unsigned long)pg.nframes);
    long r = ulf_attach(pid, NULL, 0, 0, pg.attach_flags);
    if (!pg.frames || !pg.pages || ptr_error(pg.pool) || r < 0) {
        kill(pid, SIGKILL);
        die("upager: cannot manage %s: %s", argv[first],
            !pg.frames || !pg.pages ? "no memory for the tables"
            : strerror((int)(ptr_error(pg.pool) ? ptr_error(pg.pool) : r)));
    }
    memset(pg.frames, 0, sizeof *pg.frames * (size_t)pg.nframes);
    memset(pg.pages, 0, sizeof *pg.pages * MAX_PAGES);
    ulf_release(pid);
    struct fl_ulf_msg m;
    /* A signal (^C reaches the whole job) must not leave its processes
     * waiting for answers: only "nothing left to manage" ends the loop.
     * Each answer goes with the wait for the next fault, in one call. */
    r = ulf_recv(&m);
    while (r == 0 || r == -EINTR) {
        if (r == 0 && m.kind == FL_ULF_FAULT)
            r = ulf_reply_recv(m.tid, handle(&m), 0, &m);
        else
            r = ulf_recv(&m);
    }
    if (r != -ESRCH) {
        fprintf(STDERR_FILENO, "upager: ulf_recv: %s\n", strerror((int)r));
        kill(pid, SIGKILL);
    }
    int status = 0;
    if (wait_pid(pid, &status, 0) != pid)
        die("upager: lost %s", argv[first]);
    struct fl_times t;
    times(&t);
    report(argv[first], status, uptime() - start, &t);
    return FL_WIFEXITED(status) ? FL_WEXITSTATUS(status) : FAILED_EXIT;
}
