/*
 * lat's rows for user-level fault handling and trap forwarding
 * (docs/ulf.md), the Cache Kernel's 32 + 67 us page fault and 37 us trap:
 *
 *   ulf_fault     a child touches a managed page nothing is mapped at;
 *                 lat, its handler, maps a frame it holds (granted zeroed
 *                 by the kernel) and resumes it. Parts from the kernel's
 *                 meters: transfer (fault entry -> handler running),
 *                 load (ulf_load -> mapping installed) and resume
 *                 (ulf_resume -> the child on its way back).
 *   trap_forward  a child's getpid, forwarded to lat, its emulator, which
 *                 answers it. Parts: forward (trap entry -> emulator
 *                 running) and resume (its answer -> the child back).
 *
 * lat answers each message and waits for the next in one call
 * (ulf_reply_recv, L4's ReplyWait). The child times each round trip with rdinstret and keeps the samples
 * in its own memory; at the end it copies them into the first page of
 * its managed region, whose frame lat reads. Both run on hart 0: under
 * icount every hart's instructions land on the one counter.
 */
#include "lat.h"

#define ULF_BASE       ((char *)0x2000000000UL)   /* the child's managed region */
#define ULF_SAMPLES    256
#define ULF_WARMUP     16
#define ULF_PAGES      (1 + ULF_WARMUP + ULF_SAMPLES)  /* the results page, then one per touch */
#define FORWARD_SAMPLES 1000
#define FORWARD_WARMUP  100
#define FORWARDED_PID   1
#define ULF_HART        0
#define RW (FL_PROT_READ | FL_PROT_WRITE)

_Static_assert(ULF_SAMPLES * sizeof(uint64_t) <= PAGE_BYTES, "the samples fit the results page");
_Static_assert(FORWARD_SAMPLES <= SAMPLES, "samples[] holds them");

/* The child's side: a sample per fresh page, then the results out. */
static void fault_child(void)
{
    set_affinity(0, ULF_HART);
    for (int i = 0; i < ULF_WARMUP; i++)
        ULF_BASE[(long)(1 + i) * PAGE_BYTES] = 1;
    for (int i = 0; i < ULF_SAMPLES; i++) {
        volatile char *p = ULF_BASE + (long)(1 + ULF_WARMUP + i) * PAGE_BYTES;
        uint64_t t0 = now();
        *p = 1;
        uint64_t t1 = now();
        samples[i] = net(t0, t1);
    }
    memcpy(ULF_BASE, samples, ULF_SAMPLES * sizeof(uint64_t));
    exit(0);
}

static void forward_child(void)
{
    set_affinity(0, ULF_HART);
    for (int i = 0; i < FORWARD_WARMUP; i++)
        (void)syscall_inline0(SYS_getpid);
    for (int i = 0; i < FORWARD_SAMPLES; i++) {
        uint64_t t0 = now();
        (void)syscall_inline0(SYS_getpid);
        uint64_t t1 = now();
        samples[i] = net(t0, t1);
    }
    /* Only what fits the results page goes back. */
    memcpy(ULF_BASE, samples, ULF_SAMPLES * sizeof(uint64_t));
    exit(0);
}

struct served {
    char *pool;
    int results_frame;           /* the frame behind the results page */
    struct fl_meter meters[FL_METER_COUNT];
    long nmeters;                /* read when the results page was touched */
};

/* The handler's loop: every fault gets the next frame, getpid the
 * answer, any other call passes; the meters are reset once warmup
 * rounds have been answered and read when the results come. */
static int serve(const char *name, int pid, int warmup, struct served *s)
{
    struct fl_ulf_msg m;
    int next = 0, answered = 0;
    s->results_frame = -1;
    long r = ulf_recv(&m);
    while (r == 0) {
        int how = FL_ULF_PASS;
        long value = 0;
        if (m.kind == FL_ULF_FAULT) {
            char *page = (char *)(uintptr_t)(m.addr & ~(uint64_t)(PAGE_BYTES - 1));
            if (page == ULF_BASE) {
                s->nmeters = meter_read(-1, s->meters, FL_METER_COUNT);
                s->results_frame = next;
            }
            how = FL_ULF_KILL;
            if (next < ULF_PAGES && !ulf_load(pid, page, s->pool + (long)next * PAGE_BYTES, RW)) {
                next++;
                how = FL_ULF_RETRY;
            }
        } else if (m.nr == SYS_getpid) {
            how = FL_ULF_RETURN;
            value = FORWARDED_PID;
        }
        /* Metered from here once the warmup rounds are answered. */
        if (how != FL_ULF_PASS && ++answered == warmup)
            meter_reset();
        r = ulf_reply_recv(m.tid, how, value, &m);
    }
    int status = -1;
    if (r != -ESRCH || wait_pid(pid, &status, 0) != pid || status != 0 || s->results_frame < 0) {
        bench_failed(name, "the child went wrong (recv %ld, status 0x%x)", r, status);
        return -1;
    }
    return 0;
}

/* Forks the held child, manages its region (and its calls if asked),
 * serves it; 0 with the samples in samples[], or -1 reported. */
static int run_child(const char *name, void (*body)(void), int flags, int warmup,
                     struct served *s)
{
    set_affinity(0, ULF_HART);
    int pid = ulf_fork_held();
    if (pid < 0) {
        bench_failed(name, "fork: %s", strerror(pid));
        return -1;
    }
    if (pid == 0) {
        body();
        exit(1);
    }
    long r = ulf_attach(pid, ULF_BASE, ULF_PAGES * PAGE_BYTES, RW, FL_ULF_REGION);
    if (r >= 0 && flags)
        r = ulf_attach(pid, NULL, 0, 0, flags);
    if (!s->pool)
        s->pool = ulf_grant(ULF_PAGES);
    if (r < 0 || ptr_error(s->pool)) {
        kill(pid, SIGKILL);
        wait_pid(pid, NULL, 0);
        bench_failed(name, "%s", strerror((int)(r < 0 ? r : ptr_error(s->pool))));
        return -1;
    }
    ulf_release(pid);
    if (serve(name, pid, warmup, s))
        return -1;
    memcpy(samples, s->pool + (long)s->results_frame * PAGE_BYTES, ULF_SAMPLES * sizeof(uint64_t));
    return 0;
}

/* One handler for both rows: its pool is granted once. On the heap, not
 * in lat's image: under mm=swap exec loads the whole image, and swapin
 * measures moving all of it. */
static struct served *served_state(const char *name)
{
    static struct served *s;
    if (!s && (s = malloc(sizeof *s)) != NULL)
        memset(s, 0, sizeof *s);
    if (!s)
        bench_failed(name, "no memory for its state");
    return s;
}

void bench_ulf_fault(void)
{
    struct served *s = served_state("ulf_fault");
    if (!s || run_child("ulf_fault", fault_child, 0, ULF_WARMUP, s))
        return;
    report_unit("ulf_fault", insn_unit, ULF_WARMUP, samples, ULF_SAMPLES, true);
    printf("\"parts\":{");
    report_meter_part_of(s->meters, s->nmeters, "transfer", FL_METER_ULF_TRANSFER, false);
    report_meter_part_of(s->meters, s->nmeters, "load", FL_METER_ULF_LOAD, false);
    report_meter_part_of(s->meters, s->nmeters, "resume", FL_METER_ULF_RESUME, true);
    printf("}}\n");
}

void bench_trap_forward(void)
{
    struct served *s = served_state("trap_forward");
    if (!s || run_child("trap_forward", forward_child, FL_ULF_SYSCALLS, FORWARD_WARMUP, s))
        return;
    report_unit("trap_forward", insn_unit, FORWARD_WARMUP, samples, ULF_SAMPLES, true);
    printf("\"parts\":{");
    report_meter_part_of(s->meters, s->nmeters, "forward", FL_METER_TRAP_FORWARD, false);
    report_meter_part_of(s->meters, s->nmeters, "resume", FL_METER_TRAP_RESUME, true);
    printf("}}\n");
}
