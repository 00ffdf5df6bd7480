/*
 * lat, part two: the signal benchmarks. signal_self, kill_self and
 * segv_catch run on one hart; signal_cross and the ping-pongs time work
 * on two (the shared clock, rdcycle).
 */
#include "lat.h"

static volatile uint64_t handler_end;   /* counter when the handler returns */
static volatile uint64_t handler_start; /* counter when the handler starts (cross) */
static volatile int cross_seen;         /* handled signals seen by the target */

static void empty_handler(int sig, uint64_t addr, struct fl_sigframe *frame)
{
    (void)sig; (void)addr; (void)frame;
    handler_end = now();
}

/* Signal to self, caught and returned: tkill, delivery on the way out of
 * that system call, the empty handler, the trampoline, sigreturn. The
 * second number is sigreturn alone: from the handler's last instruction
 * back to the instruction after tkill. */
void bench_signal_self(void)
{
    static uint64_t back[SAMPLES];
    signal(SIGUSR1, empty_handler);
    int self = gettid();
    for (int i = 0; i < WARMUP; i++)
        tkill(self, SIGUSR1);
    for (int i = 0; i < SAMPLES; i++) {
        uint64_t t0 = now();
        tkill(self, SIGUSR1);
        uint64_t t1 = now();
        samples[i] = net(t0, t1);
        back[i] = net(handler_end, t1);
    }
    signal(SIGUSR1, SIG_DFL_HANDLER);
    report("signal_self", samples, SAMPLES, false);
    report("sigreturn", back, SAMPLES, false);
}

/* The same through kill(): the process-directed path, to the caller's
 * own pid (no search of the process table for it). */
void bench_kill_self(void)
{
    signal(SIGUSR1, empty_handler);
    int self = getpid();
    for (int i = 0; i < WARMUP; i++)
        kill(self, SIGUSR1);
    for (int i = 0; i < SAMPLES; i++) {
        uint64_t t0 = now();
        kill(self, SIGUSR1);
        uint64_t t1 = now();
        samples[i] = net(t0, t1);
    }
    signal(SIGUSR1, SIG_DFL_HANDLER);
    report("kill_self", samples, SAMPLES, false);
}

/*
 * Ping-pong between two processes, each waiting in sigsuspend with
 * SIGUSR1 blocked otherwise: kill(other), sigsuspend until the other's
 * kill comes back and its handler has run. One sample is one round trip
 * on the shared clock (rdcycle), halved: one way is a kill, the sleeping
 * target woken and switched to, its handler and sigreturn, and its going
 * back to sleep. The two processes are pinned to the harts given.
 */
static volatile int pongs;

static void pong_handler(int sig, uint64_t addr, struct fl_sigframe *frame)
{
    (void)sig; (void)addr; (void)frame;
    pongs++;
}

static void bench_pingpong(const char *name, int parent_hart, int child_hart)
{
    struct fl_sysinfo si;
    if (child_hart != parent_hart && (sysinfo(&si) < 0 || si.nharts < 2)) {
        bench_failed(name, "it needs 2 harts");
        return;
    }
    uint64_t block = FL_SIGMASK(SIGUSR1), open = 0, old = 0;
    signal(SIGUSR1, pong_handler);
    sigprocmask(SIG_BLOCK, &block, &old);     /* the child inherits it */
    int rounds = CROSS_WARMUP + PINGPONG_SAMPLES, parent = getpid();
    int pid = fork();
    if (pid == 0) {
        set_affinity(0, child_hart);
        for (int i = 0; i < rounds; i++) {
            sigsuspend(&open);
            kill(parent, SIGUSR1);
        }
        exit(0);
    }
    if (pid < 0) {
        bench_failed(name, "fork: %s", strerror(pid));
    } else {
        set_affinity(0, parent_hart);
        for (int i = 0; i < rounds; i++) {
            uint64_t t0 = rdcycle();
            kill(pid, SIGUSR1);
            sigsuspend(&open);
            uint64_t t1 = rdcycle();
            if (i >= CROSS_WARMUP)
                samples[i - CROSS_WARMUP] = (t1 - t0) / 2;
        }
        wait_pid(pid, NULL, 0);
        report_unit(name, cycle_unit, CROSS_WARMUP, samples, PINGPONG_SAMPLES, false);
    }
    set_affinity(0, -1);
    sigprocmask(SIG_SETMASK, &old, NULL);
    signal(SIGUSR1, SIG_DFL_HANDLER);
}

void bench_sigpingpong(void)       { bench_pingpong("sigpingpong", 0, 0); }
void bench_sigpingpong_cross(void) { bench_pingpong("sigpingpong_cross", 0, 1); }

/* SIGSEGV caught and returned: a load from address 0 faults, the handler
 * steps the saved pc past the load. */
static void skip_handler(int sig, uint64_t addr, struct fl_sigframe *frame)
{
    (void)sig; (void)addr;
    frame->regs[FL_REG_PC] += RISCV_INSN_BYTES;
}

static inline __attribute__((always_inline)) void load_null(void)
{
    /* .option norvc: the handler skips exactly one 4-byte instruction. */
    __asm__ volatile(".option push\n.option norvc\nld zero, 0(zero)\n.option pop" ::: "memory");
}

void bench_segv_catch(void)
{
    signal(SIGSEGV, skip_handler);
    for (int i = 0; i < WARMUP; i++)
        load_null();
    for (int i = 0; i < SAMPLES; i++) {
        uint64_t t0 = now();
        load_null();
        uint64_t t1 = now();
        samples[i] = net(t0, t1);
    }
    signal(SIGSEGV, SIG_DFL_HANDLER);
    report("segv_catch", samples, SAMPLES, false);
}

/*
 * A signal to a thread pinned on another hart, spinning in user mode, as
 * in the Cache Kernel paper. Both ends read rdcycle, which under -icount is
 * one virtual clock shared by all harts (rdinstret would be per hart).
 * delivery: tkill issued -> first instruction of the handler on the other
 * hart; return: last instruction of the handler -> the interrupted loop
 * running again. The sender sleeps so its hart idles (wfi) meanwhile; the
 * instructions it runs between the IPI and going idle are in `delivery`,
 * because the harts share one clock (docs/measurement.md).
 */
static volatile int cross_stop;
static volatile uint64_t resumed_at;

static void cross_handler(int sig, uint64_t addr, struct fl_sigframe *frame)
{
    (void)sig; (void)addr; (void)frame;
    handler_start = rdcycle();
    cross_seen++;
    handler_end = rdcycle();
}

static long cross_target(void *arg)
{
    (void)arg;
    set_affinity(0, 1);
    int seen = cross_seen;
    while (!cross_stop) {
        if (cross_seen != seen) {
            resumed_at = rdcycle();
            seen = cross_seen;
        }
    }
    return 0;
}

void bench_signal_cross(void)
{
    struct fl_sysinfo si;
    if (sysinfo(&si) < 0 || si.nharts < 2) {
        bench_failed("signal_cross", "it needs 2 harts");
        return;
    }
    static uint64_t delivery[CROSS_SAMPLES], ret[CROSS_SAMPLES];
    signal(SIGUSR2, cross_handler);
    set_affinity(0, 0);
    cross_stop = 0;
    int tid = thread_create(cross_target, NULL);
    if (tid < 0) {
        bench_failed("signal_cross", "thread_create: %s", strerror(-tid));
        return;
    }
    sleep(CROSS_WAIT_MS * 10);                 /* let it reach hart 1 and spin */
    int n = 0;
    for (int i = 0; i < CROSS_SAMPLES + CROSS_WARMUP; i++) {
        int before = cross_seen;
        uint64_t t0 = rdcycle();
        tkill(tid, SIGUSR2);
        while (cross_seen == before)
            sleep(CROSS_WAIT_MS);
        while (resumed_at < handler_end)
            sleep(CROSS_WAIT_MS);
        if (i < CROSS_WARMUP)
            continue;
        delivery[n] = handler_start - t0;
        ret[n] = resumed_at - handler_end;
        samples[n] = delivery[n] + ret[n];
        n++;
    }
    cross_stop = 1;
    thread_join(tid, NULL);
    signal(SIGUSR2, SIG_DFL_HANDLER);
    set_affinity(0, -1);
    report_unit("signal_cross", cycle_unit, CROSS_WARMUP, samples, n, true);
    sort(delivery, n);
    sort(ret, n);
    printf("\"parts\":{\"delivery\":{\"unit\":\"%s\",\"n\":%d,\"min\":%lu,\"median\":%lu,\"max\":%lu},"
           "\"return\":{\"unit\":\"%s\",\"n\":%d,\"min\":%lu,\"median\":%lu,\"max\":%lu}}}\n",
           cycle_unit, n, delivery[0], delivery[n / 2], delivery[n - 1], cycle_unit, n, ret[0], ret[n / 2], ret[n - 1]);
}
