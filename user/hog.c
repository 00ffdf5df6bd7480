/*
 * hog: the memory-hog workload for the memory managers.
 *
 *   hog [-p NPROCS] [-m KIB_PER_PROC] [-r ROUNDS] [-s] [-f]
 *
 * The parent forks NPROCS children (default 2). Each child takes
 * KIB_PER_PROC KiB (default 512, rounded up to whole pages) from sbrk, or
 * with -s from an anonymous mmap, and fills every page with a pattern
 * unique to (child, page, round), so a page that came back from another
 * process, from another page of this one, from an earlier round, or zeroed
 * is caught. It keeps a checksum per page. Then, ROUNDS times (default 2),
 * it verifies every page and rewrites it with the next round's pattern,
 * yielding every few pages so the children interleave; a last pass
 * verifies the final round. With -f, after the first round each child
 * forks a grandchild that verifies a sample of the pages it inherited and
 * execs `echo`, while the child goes on with its rounds, then waits for it.
 *
 * Output: a child prints one "hog: child I (pid P): mismatch in page N ..."
 * line at its first bad page; the parent prints one line (docs/protocol.md)
 *   FL-JSON {"bench":"hog","procs":N,"kib_per_proc":M,"rounds":R,"mem":"sbrk"|"mmap",
 *            "forkexec":true|false,"pages_checked":..,"bad_pages":..,
 *            "failed_children":..,"elapsed_ms":..}
 * and exits 0 only if every child passed. Bad arguments: usage, exit 2.
 *
 * A child reports to the parent through its exit status (there is no
 * shared memory): 0 = all good, 1..HOG_EXIT_BAD_MAX = that many bad pages
 * (saturating), or one of the HOG_EXIT_* codes below. So bad_pages
 * saturates at HOG_EXIT_BAD_MAX per child, and pages_checked counts the
 * verifications of children that ran to the end (a killed child's are
 * unknown and not counted).
 */
#include "ulib.h"
#include "mix64.h"

#define DEFAULT_PROCS     2
#define DEFAULT_KIB       512
#define DEFAULT_ROUNDS    2
#define MAX_PROCS         16        /* twice that with -f, within the kernel's 64 */
#define MAX_KIB           (1024 * 1024)   /* 1 GiB per child */
#define MAX_ROUNDS        1000
#define KIB               1024UL
#define YIELD_EVERY_PAGES 16        /* often enough that the children interleave */
#define SAMPLE_STRIDE     8         /* the grandchild checks every 8th page, and the last */
#define USAGE_EXIT        2
#define MISMATCH_DETAIL_MAX 192     /* the variable part of a mismatch line */

/* child exit codes: 1..HOG_EXIT_BAD_MAX are bad-page counts */
#define HOG_EXIT_OK         0
#define HOG_EXIT_BAD_MAX    100
#define HOG_EXIT_NOMEM      101     /* sbrk/mmap/malloc refused: nothing checked */
#define HOG_EXIT_GRANDCHILD 102     /* own pages good, but the -f grandchild failed */
#define HOG_EXIT_EXEC       103     /* the grandchild could not exec echo */

/* Page layout: a header saying whose page it is, then pattern words. The
 * header lets a mismatch line say what the page holds instead. */
#define HOG_MAGIC     0x484f475041474521ULL   /* "HOGPAGE!" */
#define HDR_MAGIC     0
#define HDR_CHILD     1
#define HDR_PAGE      2
#define HDR_ROUND     3             /* pattern words follow the header */

#define SEED_CHILD_SHIFT 48         /* child, page and round in separate bit fields */
#define SEED_PAGE_SHIFT  16
#define CHECKSUM_ROTATE  1          /* position-dependent, so swapped words show */
#define WORD_BITS        64

struct options {
    int      procs;
    unsigned long kib;
    int      rounds;
    bool     use_mmap;
    bool     fork_exec;
};

struct region {
    uint64_t *base;
    size_t    pages;
    size_t    words_per_page;
    uint64_t *checksums;            /* one per page, of what was last written */
};

struct child_result {
    unsigned long pages_checked;
    unsigned long bad_pages;
};

static int child_index;             /* which child this is, for messages */
static bool reported;               /* the first mismatch line is printed */

/* ------------------------------------------------------------ patterns */

/* One step of splitmix64 from x: consecutive inputs give unrelated outputs. */
static uint64_t mix(uint64_t x)
{
    return mix64(x + MIX64_GAMMA);
}

static uint64_t page_seed(int child, size_t page, int round)
{
    return mix(((uint64_t)child << SEED_CHILD_SHIFT) ^ ((uint64_t)page << SEED_PAGE_SHIFT) ^
               (uint64_t)round);
}

/* What word w of (child, page, round) must hold. */
static uint64_t expected_word(uint64_t seed, int child, size_t page, int round, size_t w)
{
    switch (w) {
    case HDR_MAGIC: return HOG_MAGIC;
    case HDR_CHILD: return (uint64_t)child;
    case HDR_PAGE:  return (uint64_t)page;
    case HDR_ROUND: return (uint64_t)round;
    default:        return mix(seed + w);
    }
}

static uint64_t checksum_step(uint64_t sum, uint64_t word)
{
    return ((sum << CHECKSUM_ROTATE) | (sum >> (WORD_BITS - CHECKSUM_ROTATE))) ^ word;
}

static uint64_t *page_at(const struct region *r, size_t page)
{
    return r->base + page * r->words_per_page;
}

static void fill_page(struct region *r, size_t page, int round)
{
    uint64_t *p = page_at(r, page);
    uint64_t seed = page_seed(child_index, page, round);
    uint64_t sum = 0;
    for (size_t w = 0; w < r->words_per_page; w++) {
        uint64_t v = expected_word(seed, child_index, page, round, w);
        p[w] = v;
        sum = checksum_step(sum, v);
    }
    r->checksums[page] = sum;
}

/* One line, written with one call so other children's output cannot
 * split it. */
static void report_mismatch(const struct region *r, size_t page, int round, size_t w,
                            uint64_t want, uint64_t got, bool checksum_only)
{
    const uint64_t *p = page_at(r, page);
    char what[MISMATCH_DETAIL_MAX];
    if (checksum_only)
        snprintf(what, sizeof what, "the pattern is right but not the checksum");
    else
        snprintf(what, sizeof what, "word %lu is 0x%lx, expected 0x%lx; the page says "
                 "magic 0x%lx child %ld page %ld round %ld", (unsigned long)w, got, want,
                 p[HDR_MAGIC], (long)p[HDR_CHILD], (long)p[HDR_PAGE], (long)p[HDR_ROUND]);
    fprintf(STDERR_FILENO, "hog: child %d (pid %d): mismatch in page %lu at %p round %d: %s\n",
            child_index, getpid(), (unsigned long)page, (const void *)p, round, what);
}

/* true if the page holds round `round`'s pattern and the checksum kept
 * for it. The first bad page of the process is reported. */
static bool verify_page(const struct region *r, size_t page, int round)
{
    const uint64_t *p = page_at(r, page);
    uint64_t seed = page_seed(child_index, page, round);
    uint64_t sum = 0;
    size_t bad_word = r->words_per_page;
    uint64_t want = 0;
    for (size_t w = 0; w < r->words_per_page; w++) {
        uint64_t v = p[w];
        sum = checksum_step(sum, v);
        if (bad_word == r->words_per_page) {
            uint64_t e = expected_word(seed, child_index, page, round, w);
            if (v != e) {
                bad_word = w;
                want = e;
            }
        }
    }
    bool pattern_ok = bad_word == r->words_per_page;
    bool sum_ok = sum == r->checksums[page];
    if ((pattern_ok && sum_ok) || reported)
        return pattern_ok && sum_ok;
    reported = true;
    report_mismatch(r, page, round, bad_word, want, pattern_ok ? 0 : p[bad_word], pattern_ok);
    return false;
}

static void maybe_yield(size_t page)
{
    if (page % YIELD_EVERY_PAGES == YIELD_EVERY_PAGES - 1)
        yield();
}

/* ------------------------------------------------------------ memory */

/* The region's pages, page aligned; NULL (after a message) on failure. */
static uint64_t *get_pages(const struct options *o, size_t bytes, size_t page_size)
{
    if (o->use_mmap) {
        void *p = mmap(NULL, bytes, FL_PROT_READ | FL_PROT_WRITE, FL_MAP_ANON);
        if (ptr_error(p)) {
            fprintf(STDERR_FILENO, "hog: child %d: mmap(%lu bytes): %s\n", child_index,
                    (unsigned long)bytes, strerror((int)ptr_error(p)));
            return NULL;
        }
        return p;
    }
    char *brk = sbrk(0);
    if (ptr_error(brk)) {
        fprintf(STDERR_FILENO, "hog: child %d: sbrk(0): %s\n", child_index,
                strerror((int)ptr_error(brk)));
        return NULL;
    }
    size_t pad = (page_size - (uintptr_t)brk % page_size) % page_size;
    char *p = sbrk((long)(pad + bytes));
    if (ptr_error(p)) {
        fprintf(STDERR_FILENO, "hog: child %d: sbrk(%lu bytes): %s\n", child_index,
                (unsigned long)(pad + bytes), strerror((int)ptr_error(p)));
        return NULL;
    }
    return (uint64_t *)(p + pad);
}

/* ------------------------------------------------------------ grandchild */

/* Runs in the grandchild: checks every SAMPLE_STRIDE-th page and the last
 * against `round`, then becomes echo. Never returns. */
static _Noreturn void grandchild(const struct region *r, int round)
{
    unsigned long checked = 0, bad = 0;
    for (size_t page = 0; page < r->pages; page++) {
        if (page % SAMPLE_STRIDE != 0 && page != r->pages - 1)
            continue;
        checked++;
        if (!verify_page(r, page, round))
            bad++;
    }
    if (bad > 0) {
        fprintf(STDERR_FILENO, "hog: child %d: grandchild found %lu bad of %lu sampled pages\n",
                child_index, bad, checked);
        exit(bad > HOG_EXIT_BAD_MAX ? HOG_EXIT_BAD_MAX : (int)bad);
    }
    char who[sizeof "4294967295"], count[sizeof "18446744073709551615"];
    snprintf(who, sizeof who, "%d", child_index);
    snprintf(count, sizeof count, "%lu", checked);
    char *argv[] = { "echo", "hog: child", who, "grandchild verified", count, "pages", NULL };
    int err = exec_command("echo", argv);
    fprintf(STDERR_FILENO, "hog: child %d: grandchild exec echo: %s\n", child_index, strerror(err));
    exit(HOG_EXIT_EXEC);
}

/* Forks the grandchild; returns its pid, or -errno (reported). */
static int start_grandchild(const struct region *r, int round)
{
    int pid = fork();
    if (pid < 0) {
        fprintf(STDERR_FILENO, "hog: child %d: fork of grandchild: %s\n", child_index,
                strerror(pid));
        return pid;
    }
    if (pid == 0)
        grandchild(r, round);
    return pid;
}

/* true if the grandchild exited 0. */
static bool grandchild_passed(int pid)
{
    int status;
    int err = wait_pid(pid, &status, 0);
    if (err < 0) {
        fprintf(STDERR_FILENO, "hog: child %d: wait for grandchild: %s\n", child_index,
                strerror(err));
        return false;
    }
    if (FL_WIFEXITED(status) && FL_WEXITSTATUS(status) == 0)
        return true;
    fprintf(STDERR_FILENO, "hog: child %d: grandchild pid %d %s %d\n", child_index, pid,
            FL_WIFEXITED(status) ? "exited with status" : "was killed by signal",
            FL_WIFEXITED(status) ? FL_WEXITSTATUS(status) : FL_WTERMSIG(status));
    return false;
}

/* ------------------------------------------------------------ child */

/* One pass: verify every page against `round`, then (unless it is the
 * last pass) rewrite it for round + 1. Returns the bad pages. */
static unsigned long pass(struct region *r, int round, bool rewrite)
{
    unsigned long bad = 0;
    for (size_t page = 0; page < r->pages; page++) {
        if (!verify_page(r, page, round))
            bad++;
        if (rewrite)
            fill_page(r, page, round + 1);
        maybe_yield(page);
    }
    return bad;
}

static _Noreturn void child(const struct options *o, int index, size_t page_size)
{
    child_index = index;
    struct region r = {
        .pages = (o->kib * KIB + page_size - 1) / page_size,
        .words_per_page = page_size / sizeof(uint64_t),
    };
    r.checksums = malloc(r.pages * sizeof r.checksums[0]);
    if (!r.checksums) {
        fprintf(STDERR_FILENO, "hog: child %d: no memory for %lu checksums\n", index,
                (unsigned long)r.pages);
        exit(HOG_EXIT_NOMEM);
    }
    r.base = get_pages(o, r.pages * page_size, page_size);
    if (!r.base)
        exit(HOG_EXIT_NOMEM);

    for (size_t page = 0; page < r.pages; page++) {
        fill_page(&r, page, 0);
        maybe_yield(page);
    }
    unsigned long bad = 0;
    int grandchild_pid = 0;
    for (int round = 0; round < o->rounds; round++) {
        bad += pass(&r, round, true);
        /* after the first round every page has been read and rewritten
         * under pressure: a fork now copies a fully populated image */
        if (round == 0 && o->fork_exec)
            grandchild_pid = start_grandchild(&r, round + 1);
    }
    bad += pass(&r, o->rounds, false);

    bool grandchild_ok = !o->fork_exec || (grandchild_pid > 0 && grandchild_passed(grandchild_pid));
    if (bad > 0) {
        fprintf(STDERR_FILENO, "hog: child %d: %lu bad pages\n", index, bad);
        exit(bad > HOG_EXIT_BAD_MAX ? HOG_EXIT_BAD_MAX : (int)bad);
    }
    exit(grandchild_ok ? HOG_EXIT_OK : HOG_EXIT_GRANDCHILD);
}

/* ------------------------------------------------------------ parent */

/* Adds what one child's exit status says to the totals; false if it failed. */
static bool account_child(int index, int pid, int status, unsigned long checks_per_child,
                          struct child_result *total)
{
    if (!FL_WIFEXITED(status)) {
        fprintf(STDERR_FILENO, "hog: child %d (pid %d) was killed by signal %d\n", index, pid,
                FL_WTERMSIG(status));
        return false;
    }
    int code = FL_WEXITSTATUS(status);
    if (code == HOG_EXIT_NOMEM)
        return false;
    total->pages_checked += checks_per_child;
    if (code >= 1 && code <= HOG_EXIT_BAD_MAX)
        total->bad_pages += (unsigned long)code;
    else if (code != HOG_EXIT_OK && code != HOG_EXIT_GRANDCHILD)
        fprintf(STDERR_FILENO, "hog: child %d (pid %d) exited with status %d\n", index, pid,
                code);
    return code == HOG_EXIT_OK;
}

static int run(const struct options *o, size_t page_size)
{
    int pids[MAX_PROCS];
    int failed = 0;
    long start = uptime();

    for (int i = 0; i < o->procs; i++) {
        pids[i] = fork();
        if (pids[i] == 0)
            child(o, i, page_size);
        if (pids[i] < 0) {
            fprintf(STDERR_FILENO, "hog: fork of child %d: %s\n", i, strerror(pids[i]));
            failed++;
        }
    }

    size_t pages = (o->kib * KIB + page_size - 1) / page_size;
    /* the fill is not a check; each round and the last pass are */
    unsigned long checks_per_child = (unsigned long)pages * (unsigned long)(o->rounds + 1);
    struct child_result total = { 0, 0 };
    for (int i = 0; i < o->procs; i++) {
        if (pids[i] < 0)
            continue;
        int status;
        int err = wait_pid(pids[i], &status, 0);
        if (err < 0) {
            fprintf(STDERR_FILENO, "hog: wait for child %d: %s\n", i, strerror(err));
            failed++;
        } else if (!account_child(i, pids[i], status, checks_per_child, &total)) {
            failed++;
        }
    }
    long elapsed = uptime() - start;

    printf("FL-JSON {\"bench\":\"hog\",\"procs\":%d,\"kib_per_proc\":%lu,\"rounds\":%d,"
           "\"mem\":\"%s\",\"forkexec\":%s,\"pages_checked\":%lu,\"bad_pages\":%lu,"
           "\"failed_children\":%d,\"elapsed_ms\":%ld}\n",
           o->procs, o->kib, o->rounds, o->use_mmap ? "mmap" : "sbrk",
           o->fork_exec ? "true" : "false", total.pages_checked, total.bad_pages, failed,
           elapsed);
    return failed == 0 ? 0 : 1;
}

/* ------------------------------------------------------------ arguments */

static _Noreturn void usage(void)
{
    fprintf(STDERR_FILENO,
            "usage: hog [-p NPROCS] [-m KIB_PER_PROC] [-r ROUNDS] [-s] [-f]\n"
            "  -p  children, 1..%d (default %d)\n"
            "  -m  KiB per child, 1..%d, rounded up to pages (default %d)\n"
            "  -r  verify-and-rewrite rounds, 1..%d (default %d)\n"
            "  -s  memory from an anonymous mmap instead of sbrk\n"
            "  -f  each child also forks a grandchild that checks pages and execs echo\n",
            MAX_PROCS, DEFAULT_PROCS, MAX_KIB, DEFAULT_KIB, MAX_ROUNDS, DEFAULT_ROUNDS);
    exit(USAGE_EXIT);
}

/* The decimal number in s, which must lie in lo..hi; usage() otherwise. */
static unsigned long number_arg(const char *s, unsigned long lo, unsigned long hi)
{
    if (!s || !isdigit(*s))
        usage();
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (*end != '\0' || v < lo || v > hi)
        usage();
    return v;
}

static void parse_args(int argc, char *argv[], struct options *o)
{
    *o = (struct options){ DEFAULT_PROCS, DEFAULT_KIB, DEFAULT_ROUNDS, false, false };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-s") == 0)
            o->use_mmap = true;
        else if (strcmp(a, "-f") == 0)
            o->fork_exec = true;
        else if (strcmp(a, "-p") == 0)
            o->procs = (int)number_arg(argv[++i], 1, MAX_PROCS);
        else if (strcmp(a, "-m") == 0)
            o->kib = number_arg(argv[++i], 1, MAX_KIB);
        else if (strcmp(a, "-r") == 0)
            o->rounds = (int)number_arg(argv[++i], 1, MAX_ROUNDS);
        else
            usage();
    }
}

int main(int argc, char *argv[])
{
    struct options o;
    parse_args(argc, argv, &o);

    struct fl_sysinfo info;
    int err = sysinfo(&info);
    if (err < 0) {
        print_err("hog: sysinfo", err);
        return 1;
    }
    return run(&o, (size_t)info.page_size);
}
