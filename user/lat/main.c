/*
 * lat: faultline's microbenchmarks, in the style of lmbench and sel4bench.
 *
 * Each benchmark times one operation at a time with rdinstret read just
 * before and just after it, after WARMUP untimed rounds, for a fixed number
 * of samples. The cost of an empty counter pair is measured the same way
 * and subtracted from every sample.
 *
 * The unit is what the counters count, which the kernel finds at boot and
 * reports through sysinfo: under QEMU -icount shift=0 rdinstret and
 * rdcycle count instructions ("instructions"; the kernel meters'
 * "cycles" are then the same ticks), and the counts repeat from run to
 * run; without icount both follow the host's cycle counter and every
 * number is "host-cycles": host time, moved by host load
 * (docs/measurement.md).
 *
 * Output, one line per result (docs/protocol.md):
 *   FL-JSON {"lat":"start","counters":"icount"|"host","icount_shift":S,"harts":H}
 *   FL-JSON {"bench":NAME,"unit":UNIT,"n":N,"warmup":W,"overhead":O,
 *            "min":..,"median":..,"mean":..,"p90":..,"max":..,"hist":[[lo,hi,count],..]
 *            [,"parts":{PART:{"n":..,"min":..,"mean":..,"max":..,"unit":..}}]}
 *   FL-JSON {"bench":NAME,"failed":REASON}     it could not run here
 * each followed by the kernel's meters over that benchmark alone (they are
 * reset before it), FL-JSON {"meters":[...],"bench":NAME}, and at the end
 * FL-JSON {"lat":"done","failed":F}. The exit status is 1 if any failed.
 *
 *   lat            every benchmark (swapin needs mm=swap, pagein a swap
 *                  device, signal_cross and sigpingpong_cross two harts)
 *   lat NAME...    only those
 *   lat meters     no benchmark: the kernel's meters as they stand (since
 *                  boot or the last reset), FL-JSON {"meters":[...],"bench":"meters"},
 *                  then reset them, so a workload run between two
 *                  `lat meters` is metered alone (tools/mmbench.py)
 *   lat -h         usage; an unknown name also prints it (exit status 2)
 *
 * The signal benchmarks are in signals.c, the scheduler's in sched.c,
 * user-level fault handling and trap forwarding (ulf_fault, trap_forward)
 * in ulf.c; result lines and meter parts in stats.c.
 */
#include "lat.h"

#define FAULT_PAGES     256        /* demand-zero samples: one per fresh page */
#define FAULT_WARMUP    16
#define PAGEIN_PAGES    64         /* page-in and minor-fault samples: one per page */
#define PAGEIN_WARMUP   8
#define SWAP_ROUNDS     8          /* whole-process swap-outs and swap-ins (mm=swap) */
#define SWAP_WARMUP     2
#define SWAP_PAGES      64         /* heap pages the process carries out and back */
#define FORK_SAMPLES    64         /* fork + exit + wait round trips */
#define FORK_WARMUP     4
#define FORKEXEC_PROGRAM "/true"   /* user/true.c: exits at once */
#define EXEC_FAILED_STATUS 127     /* the child's status when its exec failed */
#define FORK_USED_BYTES (16L << 20) /* fork_used: touched and freed before the forks */
#define EXIT_FAILED     1
#define EXIT_USAGE      2

uint64_t samples[SAMPLES];
uint64_t overhead;
const char *insn_unit = "instructions";
const char *cycle_unit = "cycles";
static int failures;           /* benchmarks that could not run */

/* A benchmark that could not run says so in the output, not only in a
 * line of prose, so that a report can name it. */
void bench_failed(const char *name, const char *fmt, ...)
{
    char why[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    printf("lat: %s: %s\n", name, why);
    printf("FL-JSON {\"bench\":\"%s\",\"failed\":\"%s\"}\n", name, why);
    failures++;
}

static const char *const meter_names[] = {
#define METER_NAME(name, text, what) text,
    FL_METER_EVENTS(METER_NAME)
#undef METER_NAME
};

/* ------------------------------------------------------------ timing */

static inline __attribute__((always_inline)) void ecall0(long nr)
{
    (void)syscall_inline0(nr);
}

static void measure_overhead(void)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < SAMPLES; i++) {
        uint64_t t0 = now();
        uint64_t t1 = now();
        if (t1 - t0 < best)
            best = t1 - t0;
    }
    overhead = best;
}

uint64_t net(uint64_t t0, uint64_t t1)
{
    uint64_t d = t1 - t0;
    return d > overhead ? d - overhead : 0;
}

/* ------------------------------------------------------------ results (stats.c) */

void report(const char *name, uint64_t *v, int n, bool more)
{
    report_unit(name, insn_unit, WARMUP, v, n, more);
}

/* A part of a benchmark taken from a kernel meter (cycles). */
static void report_meter_part(const char *part, enum fl_meter_event e, bool last)
{
    struct fl_meter m[FL_METER_COUNT];
    long n = meter_read(-1, m, FL_METER_COUNT);
    report_meter_part_of(m, n, part, e, last);
}

/* ------------------------------------------------------------ benchmarks */

static void bench_syscall(const char *name, long nr)
{
    for (int i = 0; i < WARMUP; i++)
        ecall0(nr);
    for (int i = 0; i < SAMPLES; i++) {
        uint64_t t0 = now();
        ecall0(nr);
        uint64_t t1 = now();
        samples[i] = net(t0, t1);
    }
    report(name, samples, SAMPLES, false);
}

static void bench_getpid(void) { bench_syscall("getpid", SYS_getpid); }
static void bench_nop(void)    { bench_syscall("nop", SYS_nop); }

/* First touch of a fresh heap page: the demand-zero fault, from the
 * faulting store to the instruction after it. */
static void bench_fault_zero(void)
{
    char *area = sbrk((long)(FAULT_PAGES + FAULT_WARMUP) * PAGE_BYTES);
    if (ptr_error(area)) {
        bench_failed("fault_zero", "sbrk: %s", strerror(ptr_error(area)));
        return;
    }
    for (int i = 0; i < FAULT_WARMUP; i++)
        *(volatile char *)(area + (long)i * PAGE_BYTES) = 1;
    meter_reset();      /* the parts below are these faults' alone */
    char *pages = area + (long)FAULT_WARMUP * PAGE_BYTES;
    for (int i = 0; i < FAULT_PAGES; i++) {
        volatile char *p = pages + (long)i * PAGE_BYTES;
        uint64_t t0 = now();
        *p = 1;
        uint64_t t1 = now();
        samples[i] = net(t0, t1);
    }
    report_unit("fault_zero", insn_unit, FAULT_WARMUP, samples, FAULT_PAGES, true);
    printf("\"parts\":{");
    report_meter_part("entry_to_frame", FL_METER_FAULT_ENTRY_TO_FRAME, false);
    report_meter_part("zeroing", FL_METER_FAULT_ZERO, false);
    report_meter_part("frame_to_map", FL_METER_FAULT_FRAME_TO_MAP, false);
    report_meter_part("map_to_exit", FL_METER_FAULT_MAP_TO_EXIT, true);
    printf("}}\n");
    sbrk(-(long)(FAULT_PAGES + FAULT_WARMUP) * PAGE_BYTES);
}

/* First read of a fresh heap page: mapped to the shared zero page, no
 * frame taken or zeroed; the part is the same fault's kernel path. */
static void bench_fault_read(void)
{
    char *area = sbrk((long)(FAULT_PAGES + FAULT_WARMUP) * PAGE_BYTES);
    if (ptr_error(area)) {
        bench_failed("fault_read", "sbrk: %s", strerror(ptr_error(area)));
        return;
    }
    int bad = 0;
    for (int i = 0; i < FAULT_WARMUP + FAULT_PAGES; i++) {
        volatile char *p = area + (long)i * PAGE_BYTES;
        uint64_t t0 = now();
        char c = *p;
        uint64_t t1 = now();
        bad += c != 0;
        if (i >= FAULT_WARMUP)
            samples[i - FAULT_WARMUP] = net(t0, t1);
    }
    if (bad)
        bench_failed("fault_read", "%d untouched pages did not read as zeros", bad);
    else
        report_unit("fault_read", insn_unit, FAULT_WARMUP, samples, FAULT_PAGES, false);
    sbrk(-(long)(FAULT_PAGES + FAULT_WARMUP) * PAGE_BYTES);
}

/* A heap area of n pages, each written once (so each is a dirty page of
 * its own), or NULL with the reason printed. */
static char *dirty_pages(const char *bench, int n)
{
    char *area = sbrk((long)n * PAGE_BYTES);
    if (ptr_error(area)) {
        bench_failed(bench, "sbrk: %s", strerror(ptr_error(area)));
        return NULL;
    }
    for (int i = 0; i < n; i++)
        area[(long)i * PAGE_BYTES] = (char)(i + 1);
    return area;
}

/* Puts the pages in the state `op` makes, then times the first touch of
 * each: the fault that brings it back. */
static void bench_touch_after(const char *name, int op, enum fl_meter_event part_event,
                              const char *part)
{
    int total = PAGEIN_PAGES + PAGEIN_WARMUP;
    char *area = dirty_pages(name, total);
    if (!area)
        return;
    long done = vmctl(op, area, (unsigned long)total * PAGE_BYTES);
    if (done != total) {
        bench_failed(name, "vmctl: %s%s", done < 0 ? strerror((int)-done) : "not every page moved",
                     done == -ENOSPC ? " (it needs a swap device: a disk)" : "");
        sbrk(-(long)total * PAGE_BYTES);
        return;
    }
    for (int i = 0; i < PAGEIN_WARMUP; i++)
        (void)*(volatile char *)(area + (long)i * PAGE_BYTES);
    meter_reset();
    char *pages = area + (long)PAGEIN_WARMUP * PAGE_BYTES;
    int bad = 0;
    for (int i = 0; i < PAGEIN_PAGES; i++) {
        volatile char *p = pages + (long)i * PAGE_BYTES;
        uint64_t t0 = now();
        char c = *p;
        uint64_t t1 = now();
        samples[i] = net(t0, t1);
        bad += c != (char)(PAGEIN_WARMUP + i + 1);
    }
    if (bad) {
        bench_failed(name, "%d pages came back wrong", bad);
        sbrk(-(long)total * PAGE_BYTES);
        return;
    }
    report_unit(name, insn_unit, PAGEIN_WARMUP, samples, PAGEIN_PAGES, true);
    printf("\"parts\":{");
    report_meter_part(part, part_event, part_event != FL_METER_PAGEIN);
    if (part_event == FL_METER_PAGEIN)
        report_meter_part("device_wait", FL_METER_PAGE_WAIT, true);
    printf("}}\n");
    sbrk(-(long)total * PAGE_BYTES);
}

/* A page written out to the swap/paging device and read back on touch. */
static void bench_pagein(void)
{
    bench_touch_after("pagein", FL_VMCTL_PAGEOUT, FL_METER_PAGEIN, "pagein");
}

/* A resident page hidden from the MMU, as the clock hides pages with
 * refbits=sw: the touch is a minor fault that only remaps it. */
static void bench_minor_fault(void)
{
    bench_touch_after("minor_fault", FL_VMCTL_HIDE, FL_METER_MINOR_FAULT, "remap");
}

/* mm=swap: the whole process out and back in, SWAP_ROUNDS times. The
 * user-side wait depends on the swapper's pacing, so the result is the
 * kernel's own meters of the two moves, per round. */
static void bench_swapin(void)
{
    char *area = dirty_pages("swapin", SWAP_PAGES);
    if (!area)
        return;
    for (int i = 0; i < SWAP_WARMUP + SWAP_ROUNDS; i++) {
        if (i == SWAP_WARMUP)
            meter_reset();
        long rc = vmctl(FL_VMCTL_SWAPOUT, NULL, 0);
        if (rc) {
            bench_failed("swapin", "vmctl: %s (it needs mm=swap and a disk)", strerror((int)-rc));
            sbrk(-(long)SWAP_PAGES * PAGE_BYTES);
            return;
        }
    }
    int bad = 0;
    for (int i = 0; i < SWAP_PAGES; i++)
        bad += area[(long)i * PAGE_BYTES] != (char)(i + 1);
    if (bad) {
        bench_failed("swapin", "%d pages came back wrong", bad);
        sbrk(-(long)SWAP_PAGES * PAGE_BYTES);
        return;
    }
    printf("FL-JSON {\"bench\":\"swapin\",\"unit\":\"%s\",\"rounds\":%d,\"warmup\":%d,"
           "\"heap_pages\":%d,\"parts\":{", cycle_unit, SWAP_ROUNDS, SWAP_WARMUP, SWAP_PAGES);
    report_meter_part("swapout", FL_METER_SWAPOUT, false);
    report_meter_part("swapin", FL_METER_SWAPIN, false);
    report_meter_part("device_wait", FL_METER_SWAP_WAIT, true);
    printf("}}\n");
    sbrk(-(long)SWAP_PAGES * PAGE_BYTES);
}

/* ------------------------------------------------------------ meters */

static void print_meters(const char *bench)
{
    static struct fl_meter m[FL_METER_COUNT];
    long n = meter_read(-1, m, FL_METER_COUNT);
    if (n < 0) {
        printf("lat: meter_read: %s\n", strerror((int)-n));
        return;
    }
    printf("FL-JSON {\"meters\":[");
    for (long e = 0; e < n; e++) {
        uint64_t hist[HIST_BUCKETS] = { 0 };
        for (int b = 0; b < FL_METER_BUCKETS; b++)
            hist[b] = m[e].hist[b];
        printf("%s{\"event\":\"%s\",\"hart\":%d,\"unit\":\"%s\",\"count\":%lu,"
               "\"min\":%lu,\"max\":%lu,\"sum\":%lu,",
               e ? "," : "", meter_names[e], m[e].hart, cycle_unit, m[e].count,
               m[e].count ? m[e].min : 0, m[e].max, m[e].sum);
        print_hist(hist);
        printf("}");
    }
    printf("],\"bench\":\"%s\"}\n", bench);
}

/* fork, the child's exit and the parent's wait, in cycles: the child may
 * run on another hart, so the span is timed, not one hart's instructions.
 * With program, the child execs it before it exits (lmbench's lat_proc
 * exec). 0, or -1 with the failure reported. */
static int spawn_rounds(const char *name, const char *program, uint64_t *out)
{
    char *argv[] = { (char *)program, NULL };
    for (int i = 0; i < FORK_WARMUP + FORK_SAMPLES; i++) {
        uint64_t t0 = rdcycle();
        int pid = fork();
        if (pid == 0) {
            if (program)
                exec(program, argv);
            exit(program ? EXEC_FAILED_STATUS : 0);
        }
        int status = -1;
        if (pid < 0 || wait(&status) != pid || status != 0) {
            bool exec_failed = program && FL_WIFEXITED(status) &&
                               FL_WEXITSTATUS(status) == EXEC_FAILED_STATUS;
            bench_failed(name, "%s%s", pid < 0 ? "fork: " : exec_failed ? "exec failed: " : "",
                         pid < 0 ? strerror(-pid) : exec_failed ? program : "child went wrong");
            return -1;
        }
        uint64_t t1 = rdcycle();
        if (i >= FORK_WARMUP)
            out[i - FORK_WARMUP] = t1 - t0;
    }
    return 0;
}

static int fork_rounds(const char *name, uint64_t *out)
{
    return spawn_rounds(name, NULL, out);
}

static void bench_fork(void)
{
    if (fork_rounds("fork", samples) == 0)
        report_unit("fork", cycle_unit, FORK_WARMUP, samples, FORK_SAMPLES, false);
}

/* The same with an exec of the smallest program in the child: what the
 * shell pays to run a command, less the shell's own work. */
static void bench_forkexec(void)
{
    if (spawn_rounds("forkexec", FORKEXEC_PROGRAM, samples) == 0)
        report_unit("forkexec", cycle_unit, FORK_WARMUP, samples, FORK_SAMPLES, false);
}

/* The same forks before and after the process touches and frees
 * FORK_USED_BYTES of heap, in one process (what else it did before
 * changes a fork's cost too): after should cost what before did, the
 * tables that memory needed being gone with it. The row is after; the
 * part "before" is the forks before. */
static void bench_fork_used(void)
{
    static uint64_t before[FORK_SAMPLES];
    if (fork_rounds("fork_used", before))
        return;
    char *area = sbrk(FORK_USED_BYTES);
    if (ptr_error(area)) {
        bench_failed("fork_used", "sbrk: %s", strerror(ptr_error(area)));
        return;
    }
    for (long off = 0; off < FORK_USED_BYTES; off += PAGE_BYTES)
        area[off] = 1;
    sbrk(-FORK_USED_BYTES);
    if (fork_rounds("fork_used", samples))
        return;
    report_unit("fork_used", cycle_unit, FORK_WARMUP, samples, FORK_SAMPLES, true);
    uint64_t lo = UINT64_MAX, hi = 0, sum = 0;
    for (int i = 0; i < FORK_SAMPLES; i++) {
        lo = before[i] < lo ? before[i] : lo;
        hi = before[i] > hi ? before[i] : hi;
        sum += before[i];
    }
    uint64_t mean_x100 = sum * PERCENT / FORK_SAMPLES;
    printf("\"parts\":{\"before\":{\"unit\":\"%s\",\"n\":%d,\"min\":%lu,\"mean\":%lu.%02lu,"
           "\"max\":%lu}}}\n", cycle_unit, FORK_SAMPLES, lo, mean_x100 / PERCENT, mean_x100 % PERCENT, hi);
}

/* ------------------------------------------------------------ main */

struct bench {
    const char *name;
    void (*run)(void);
};

static const struct bench benches[] = {
    { "getpid", bench_getpid },
    { "nop", bench_nop },
    /* First, while lat is small: fork copies every resident page. */
    { "fork", bench_fork },
    { "fork_used", bench_fork_used },
    { "forkexec", bench_forkexec },
    { "fault_zero", bench_fault_zero },
    { "fault_read", bench_fault_read },
    { "signal_self", bench_signal_self },
    { "kill_self", bench_kill_self },
    { "segv_catch", bench_segv_catch },
    { "signal_cross", bench_signal_cross },
    { "sigpingpong", bench_sigpingpong },
    { "sigpingpong_cross", bench_sigpingpong_cross },
    { "pagein", bench_pagein },
    { "minor_fault", bench_minor_fault },
    { "swapin", bench_swapin },
    { "yield", bench_yield },
    { "ulf_fault", bench_ulf_fault },
    { "trap_forward", bench_trap_forward },
};

static const struct bench *find_bench(const char *name)
{
    for (size_t i = 0; i < sizeof benches / sizeof benches[0]; i++)
        if (strcmp(name, benches[i].name) == 0)
            return &benches[i];
    return NULL;
}

static void usage(int fd)
{
    fprintf(fd, "usage: lat [NAME...]   run every benchmark, or only those named\n"
                "       lat meters      print the kernel meters, then reset them\n"
                "       lat -h          this text\n"
                "benchmarks:");
    for (size_t i = 0; i < sizeof benches / sizeof benches[0]; i++)
        fprintf(fd, " %s", benches[i].name);
    fprintf(fd, "\n(pagein needs a disk, swapin mm=swap and a disk, signal_cross and"
                " sigpingpong_cross 2 harts;"
                " docs/measurement.md)\n");
}

/* Units from what the kernel found the counters to count; the start line
 * tells a reader of the log the same. */
static void start_line(void)
{
    struct fl_sysinfo si;
    bool icount = false;
    unsigned harts = 0, shift = 0;
    if (sysinfo(&si) == 0) {
        icount = si.counters == FL_COUNTERS_ICOUNT;
        shift = si.icount_shift;
        harts = si.nharts;
    }
    insn_unit = icount ? "instructions" : "host-cycles";
    cycle_unit = icount ? "cycles" : "host-cycles";
    printf("FL-JSON {\"lat\":\"start\",\"counters\":\"%s\",\"icount_shift\":%u,\"harts\":%u}\n",
           icount ? "icount" : "host", shift, harts);
}

int main(int argc, char *argv[])
{
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "-h") == 0 || strcmp(argv[a], "--help") == 0) {
            usage(1);
            return 0;
        }
        if (!find_bench(argv[a]) && !(argc == 2 && strcmp(argv[a], "meters") == 0)) {
            fprintf(2, "lat: unknown benchmark '%s'\n", argv[a]);
            usage(2);
            return EXIT_USAGE;
        }
    }
    start_line();
    if (argc == 2 && strcmp(argv[1], "meters") == 0) {
        print_meters("meters");
        meter_reset();
        printf("FL-JSON {\"lat\":\"done\",\"failed\":0}\n");
        return 0;
    }
    measure_overhead();
    for (size_t i = 0; i < sizeof benches / sizeof benches[0]; i++) {
        bool wanted = argc == 1;
        for (int a = 1; a < argc; a++)
            wanted |= strcmp(argv[a], benches[i].name) == 0;
        if (!wanted)
            continue;
        meter_reset();
        benches[i].run();
        print_meters(benches[i].name);
    }
    printf("FL-JSON {\"lat\":\"done\",\"failed\":%d}\n", failures);
    return failures ? EXIT_FAILED : 0;
}
