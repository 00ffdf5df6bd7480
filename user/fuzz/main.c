/*
 * fuzz [-s SEED] [-n CALLS] [-c CHILDREN] [-b BATCH] [-d]: random system
 * calls with hostile arguments, made by forked children so that the
 * parent survives whatever they do and counts it.
 *
 * The CALLS calls are cut into batches of BATCH; batch k is made by one
 * child, and its calls depend on SEED and k only (gen.c). At most
 * CHILDREN children run at once; when one ends, the next batch starts.
 * The parent ignores every signal it can (children send it some), and
 * a child gets SIGKILL-free targets for the parent (run.c).
 *
 * A child says how far it got in a ram file, /fz-ck<slot>, before any
 * call that may end it and every FUZZ_CHECKPOINT_EVERY calls; from that
 * count the parent replays the batch's generator to count the calls per
 * system call. A child killed by another child between checkpoints is
 * credited with its last checkpoint only; a child whose checkpoint file
 * is missing (no memory for it) is counted as "lost", its calls not.
 *
 * Output (docs/protocol.md): a start line, a progress line every
 * PROGRESS_MS, and a last line with the totals, all `FL-JSON
 * {"fuzz":...}`. A child that outlives CHILD_DEADLINE_MS has hung in the
 * kernel: it is reported (with the seed and batch that reproduce it),
 * killed, and fuzz exits 1. -d (dry run) makes no calls and prints the
 * checksum of the calls the seed generates, with their counts.
 */
#include "fuzz.h"

#define DEFAULT_SEED      1
#define DEFAULT_CALLS     10000
#define DEFAULT_CHILDREN  4
#define DEFAULT_BATCH     500
#define DEFAULT_BALLAST   256          /* KiB each child keeps touching */
#define MAX_CALLS         1000000000L
#define MAX_BATCH         1000000L
#define USAGE_EXIT        2
#define POLL_MS           2            /* how often the parent looks at its children */
#define PROGRESS_MS       2000
#define CHILD_DEADLINE_MS 120000       /* a batch takes seconds; this long is a hang */
#define KILL_WAIT_MS      10000        /* a SIGKILLed child must be gone by then */
#define MAX_PROCS_SEEN    64           /* procinfo entries: the kernel's process table */
#define PATH_LEN          32
#define LINE_MAX_BYTES    4096


struct options {
    uint64_t seed;
    long     calls;
    int      children;
    long     batch;
    long     ballast_kib;
    bool     dry_run;
};

/* One child at a time works through a batch; when a child dies part way,
 * the next one takes the batch up where it ended. */
struct slot {
    int      pid;                      /* 0: no child running */
    bool     busy;                     /* the batch is not done */
    uint64_t batch;
    long     from, to;                 /* the calls of the batch still to make */
    long     started_ms;
};

struct totals {
    long calls;
    long per_spec[FUZZ_MAX_SPECS];
    long children;
    long killed;
    long by_signal[NSIG];
    long lost;
    long skipped;
    long no_memory;
    long corrupt;
};

static void usage(void)
{
    fprintf(STDERR_FILENO,
            "usage: fuzz [-s SEED] [-n CALLS] [-c CHILDREN] [-b BATCH] [-m KIB] [-d]\n"
            "  -s  seed: the same seed makes the same calls (default %d)\n"
            "  -n  calls in all, 1..%ld (default %d)\n"
            "  -c  children at once, 1..%d (default %d)\n"
            "  -b  calls per child, 1..%ld (default %d)\n"
            "  -m  KiB of memory each child keeps writing and checking, 0..%d (default %d)\n"
            "  -d  dry run: print the checksum of the calls, make none\n",
            DEFAULT_SEED, MAX_CALLS, DEFAULT_CALLS, FUZZ_MAX_CHILDREN, DEFAULT_CHILDREN,
            MAX_BATCH, DEFAULT_BATCH, FUZZ_MAX_BALLAST_KIB, DEFAULT_BALLAST);
    exit(USAGE_EXIT);
}

static unsigned long number_arg(const char *s, unsigned long lo, unsigned long hi, int base)
{
    if (!s || !isdigit(*s))
        usage();
    char *end;
    unsigned long v = strtoul(s, &end, base);
    if (*end != '\0' || v < lo || v > hi || v == ~0UL)
        usage();
    return v;
}

static void parse_args(int argc, char *argv[], struct options *o)
{
    *o = (struct options){ DEFAULT_SEED, DEFAULT_CALLS, DEFAULT_CHILDREN, DEFAULT_BATCH,
                           DEFAULT_BALLAST, false };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-d") == 0)
            o->dry_run = true;
        else if (strcmp(a, "-s") == 0)
            o->seed = number_arg(argv[++i], 0, ~0UL - 1, 0);
        else if (strcmp(a, "-n") == 0)
            o->calls = (long)number_arg(argv[++i], 1, MAX_CALLS, 10);
        else if (strcmp(a, "-c") == 0)
            o->children = (int)number_arg(argv[++i], 1, FUZZ_MAX_CHILDREN, 10);
        else if (strcmp(a, "-b") == 0)
            o->batch = (long)number_arg(argv[++i], 1, MAX_BATCH, 10);
        else if (strcmp(a, "-m") == 0)
            o->ballast_kib = (long)number_arg(argv[++i], 0, FUZZ_MAX_BALLAST_KIB, 10);
        else
            usage();
    }
}

static long batches(const struct options *o) { return (o->calls + o->batch - 1) / o->batch; }

static long batch_count(const struct options *o, long k)
{
    long left = o->calls - k * o->batch;
    return left < o->batch ? left : o->batch;
}

/* Replays calls [from, to) of a batch: which system calls they were. */
static uint64_t replay(uint64_t seed, uint64_t batch, long from, long to, long *per_spec)
{
    struct fuzz_gen g;
    struct fuzz_call c;
    gen_start(&g, seed, batch);
    for (long i = 0; i < to; i++) {
        gen_next(&g, &c);
        if (i >= from)
            per_spec[c.spec]++;
    }
    return g.hash;
}

/* `"name":count,...` for every system call fuzz makes. */
static int spec_counts(char *buf, size_t size, const long *per_spec)
{
    int n = 0;
    for (int s = 0; s < fuzz_nspecs && (size_t)n < size; s++)
        n += snprintf(buf + n, size - (size_t)n, "%s\"%s\":%ld", s ? "," : "",
                      fuzz_specs[s].name, per_spec[s]);
    return n;
}

/* One line in one write, so no other output lands inside it. */
static void emit(const char *line, int n)
{
    write(STDOUT_FILENO, line, (size_t)n);
}

static void dry_run(const struct options *o)
{
    static char line[LINE_MAX_BYTES];
    long per_spec[FUZZ_MAX_SPECS] = { 0 };
    uint64_t sum = 0;
    for (long k = 0; k < batches(o); k++)
        sum = sum * 31 + replay(o->seed, (uint64_t)k, 0, batch_count(o, k), per_spec);
    int n = snprintf(line, sizeof line,
                     "FL-JSON {\"fuzz\":\"dry-run\",\"seed\":%lu,\"calls\":%ld,\"batch\":%ld,"
                     "\"checksum\":\"%016lx\",\"syscalls\":{",
                     o->seed, o->calls, o->batch, sum);
    n += spec_counts(line + n, sizeof line - (size_t)n - 3, per_spec);
    n += snprintf(line + n, sizeof line - (size_t)n, "}}\n");
    emit(line, n);
    printf("fuzz: seed %lu, %ld calls: checksum %016lx\n", o->seed, o->calls, sum);
}

static void checkpoint_path(char *buf, int slot)
{
    snprintf(buf, PATH_LEN, "/fz-ck%d", slot);
}

/* The count a child left in its checkpoint file, or -1 if there is none. */
static long read_checkpoint(int slot)
{
    char path[PATH_LEN], text[32];
    checkpoint_path(path, slot);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    long n = read(fd, text, sizeof text - 1);
    close(fd);
    unlink(path);
    if (n <= 0)
        return -1;
    text[n] = '\0';
    return isdigit(text[0]) ? strtol(text, NULL, 10) : -1;
}

static int find_shell(int me)
{
    static struct fl_procinfo ps[MAX_PROCS_SEEN];
    int n = procinfo(ps, MAX_PROCS_SEEN);
    for (int i = 0; i < n; i++)
        if (ps[i].pid == me)
            return ps[i].ppid;
    return 0;
}

static void ignore_signals(void)
{
    for (int sig = 1; sig < NSIG; sig++)
        if (sig != SIGKILL && sig != SIGCHLD)   /* SIGCHLD ignored would reap for us */
            signal(sig, SIG_IGN_HANDLER);
}

static void default_signals(void)
{
    for (int sig = 1; sig < NSIG; sig++)
        if (sig != SIGKILL)
            signal(sig, SIG_DFL_HANDLER);
}

static void start_child(const struct options *o, struct fuzz_world *w, struct slot *slots,
                        int i)
{
    char path[PATH_LEN];
    struct slot *s = &slots[i];
    checkpoint_path(path, i);
    unlink(path);
    w->nsiblings = 0;
    for (int j = 0; j < o->children; j++)
        if (slots[j].pid)
            w->siblings[w->nsiblings++] = slots[j].pid;
    int pid = fork();
    if (pid == 0) {
        default_signals();
        /* Half the batches run outside the console's session, half in it
         * (where tcsetpgrp and the console's groups can be reached). */
        run_batch(w, o->seed, s->batch, s->from, s->to, path, s->batch & 1, o->ballast_kib);
    }
    if (pid > 0) {                      /* else EAGAIN: the next round tries again */
        s->pid = pid;
        s->started_ms = uptime();
    }
}

static void progress(const struct totals *t, const struct options *o, long started, int running)
{
    long ms = uptime() - started;
    char line[256];
    int n = snprintf(line, sizeof line,
                     "FL-JSON {\"fuzz\":\"progress\",\"calls\":%ld,\"planned\":%ld,"
                     "\"children\":%ld,\"running\":%d,\"killed\":%ld,\"ms\":%ld,\"rate\":%ld}\n",
                     t->calls, o->calls, t->children, running, t->killed, ms,
                     ms ? t->calls * 1000 / ms : 0);
    emit(line, n);
}

/* A child ended: credit the calls it made and see what is left of its batch. */
static void account(const struct options *o, struct totals *t, struct slot *s, int slot,
                    int status)
{
    long done = read_checkpoint(slot);
    t->children++;
    s->pid = 0;
    if (FL_WIFEXITED(status) && FL_WEXITSTATUS(status) == FUZZ_EXIT_NO_MEMORY)
        t->no_memory++;
    if (FL_WIFEXITED(status) && FL_WEXITSTATUS(status) == FUZZ_EXIT_CORRUPT)
        t->corrupt++;
    if (!FL_WIFEXITED(status)) {
        t->killed++;
        t->by_signal[FL_WTERMSIG(status) % NSIG]++;
    }
    if (done < 0)
        t->lost++;
    if (done > s->to)
        done = s->to;
    if (done > s->from) {
        t->calls += done - s->from;
        replay(o->seed, s->batch, s->from, done, t->per_spec);
        s->from = done;
    } else {
        /* No progress recorded: the first call may be what kills it, so
         * the next child starts one further on, that call uncounted. */
        s->from++;
        t->skipped++;
    }
    s->busy = s->from < s->to;
}

/* A child that outlived its deadline: report it, kill it, and say whether
 * it went away. */
static bool hung(const struct options *o, const struct slot *s)
{
    char line[256];
    int n = snprintf(line, sizeof line,
                     "FL-JSON {\"fuzz\":\"hung\",\"seed\":%lu,\"batch\":%lu,\"pid\":%d,"
                     "\"ms\":%ld}\n", o->seed, s->batch, s->pid, uptime() - s->started_ms);
    emit(line, n);
    printf("fuzz: HUNG: pid %d, batch %lu of seed %lu (fuzz -s %lu -n %ld -b %ld -c 1 "
           "replays it alone from batch 0)\n", s->pid, s->batch, o->seed, o->seed,
           (long)(s->batch + 1) * o->batch, o->batch);
    kill(s->pid, SIGKILL);
    long start = uptime();
    int status;
    while (uptime() - start < KILL_WAIT_MS) {
        if (wait_pid(s->pid, &status, WNOHANG) == s->pid)
            return true;
        sleep(POLL_MS);
    }
    printf("fuzz: pid %d did not die of SIGKILL in %d ms\n", s->pid, KILL_WAIT_MS);
    return false;
}

static void summary(const struct options *o, const struct totals *t, long ms, int hangs)
{
    static char line[LINE_MAX_BYTES];
    int n = snprintf(line, sizeof line,
                     "FL-JSON {\"fuzz\":\"done\",\"seed\":%lu,\"calls\":%ld,\"planned\":%ld,"
                     "\"children\":%ld,\"killed\":%ld,\"lost\":%ld,\"skipped\":%ld,"
                     "\"no_memory\":%ld,\"corrupt\":%ld,\"hung\":%d,\"ms\":%ld,\"rate\":%ld,\"signals\":{",
                     o->seed, t->calls, o->calls, t->children, t->killed, t->lost, t->skipped,
                     t->no_memory, t->corrupt, hangs, ms, ms ? t->calls * 1000 / ms : 0);
    bool first = true;
    for (int sig = 0; sig < NSIG; sig++) {
        if (t->by_signal[sig]) {
            n += snprintf(line + n, sizeof line - (size_t)n, "%s\"%d\":%ld", first ? "" : ",",
                          sig, t->by_signal[sig]);
            first = false;
        }
    }
    n += snprintf(line + n, sizeof line - (size_t)n, "},\"syscalls\":{");
    n += spec_counts(line + n, sizeof line - (size_t)n - 3, t->per_spec);
    n += snprintf(line + n, sizeof line - (size_t)n, "}}\n");
    emit(line, n);
    printf("fuzz: %ld calls in %ld ms (%ld/s) by %ld children, %ld killed by signals, "
           "%ld lost, %ld with corrupt memory, %d hung\n", t->calls, ms,
           ms ? t->calls * 1000 / ms : 0, t->children, t->killed, t->lost, t->corrupt, hangs);
}

static int run(const struct options *o)
{
    static struct slot slots[FUZZ_MAX_CHILDREN];
    static struct totals t;
    static struct fuzz_world w;
    w.parent_pid = getpid();
    w.shell_pid = find_shell(w.parent_pid);
    ignore_signals();
    printf("FL-JSON {\"fuzz\":\"start\",\"pid\":%d,\"seed\":%lu,\"calls\":%ld,"
           "\"children\":%d,\"batch\":%ld,\"ballast_kib\":%ld}\n", w.parent_pid, o->seed,
           o->calls, o->children, o->batch, o->ballast_kib);
    long started = uptime(), last_progress = started;
    uint64_t next = 0, total = (uint64_t)batches(o);
    int hangs = 0;
    for (;;) {
        int running = 0;
        for (int i = 0; i < o->children; i++) {
            struct slot *s = &slots[i];
            if (!s->busy && next < total) {
                *s = (struct slot){ 0, true, next, 0, batch_count(o, (long)next), 0 };
                next++;
            }
            if (s->busy && !s->pid)
                start_child(o, &w, slots, i);
            running += s->pid != 0;
        }
        if (!running && next >= total)
            break;
        int status = 0;
        int pid = wait_pid(-1, &status, WNOHANG);
        if (pid > 0) {
            for (int i = 0; i < o->children; i++)
                if (slots[i].pid == pid)
                    account(o, &t, &slots[i], i, status);
            continue;
        }
        long now = uptime();
        for (int i = 0; i < o->children; i++) {
            struct slot *s = &slots[i];
            if (s->pid && now - s->started_ms > CHILD_DEADLINE_MS) {
                hangs++;
                if (!hung(o, s)) {
                    summary(o, &t, uptime() - started, hangs);
                    return 1;
                }
                s->pid = 0;
                s->busy = false;        /* the rest of this batch is not made */
            }
        }
        if (now - last_progress >= PROGRESS_MS) {
            progress(&t, o, started, running);
            last_progress = now;
        }
        sleep(POLL_MS);
    }
    for (int i = 0; i < fuzz_nnames; i++)
        unlink(fuzz_names[i]);
    summary(o, &t, uptime() - started, hangs);
    return hangs || t.corrupt ? 1 : 0;
}

int main(int argc, char *argv[])
{
    /* `fuzz -e N` exits with N at once: the children exec it, to exec a
     * real program from a process with threads without starting another
     * run. With no arguments at all (an exec with an empty argv), too. */
    if (argc < 1)
        return 0;
    if (argc == 3 && strcmp(argv[1], "-e") == 0)
        return atoi(argv[2]);
    struct options o;
    parse_args(argc, argv, &o);
    if (o.dry_run) {
        dry_run(&o);
        return 0;
    }
    return run(&o);
}
