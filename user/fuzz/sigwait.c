/*
 * The child side of fuzz, part three: constraints on the calls that wait
 * for signals or set an alternate signal stack, so that none of them
 * stalls the run or lets the kernel write signal frames into the child's
 * own memory (run.c applies the others).
 *
 *  - sigsuspend always has a signal to wake it: SIGUSR2, caught by the
 *    child's own handler, blocked and sent to itself first, and cleared
 *    from the mask it waits with. The mask is the generated word, in a
 *    buffer of the region; a pointer of a kind the kernel must refuse is
 *    left as it is.
 *  - sigtimedwait never waits for ever or for long: a timeout it can read
 *    (NULL included) becomes a few milliseconds, or now and then one the
 *    kernel must refuse (tv_nsec out of range).
 *  - sigaltstack only ever names a stack in the play area or one the
 *    kernel must refuse (NULL, kernel, unmapped, too small, wrapping), so
 *    a frame pushed there can hurt nothing the child checks.
 */
#include "child.h"

#define WAKE_SIG        SIGUSR2
#define NS_PER_MS       1000000L
#define NS_PER_SEC      1000000000L
/* Scratch at the end of the buffers, out of the way of P_START. */
#define SCRATCH_MASK    (REGION_BYTES - 64)
#define SCRATCH_TIME    (REGION_BYTES - 48)
#define SCRATCH_STACK   (REGION_BYTES - 32)
#define BAD_TIMEOUT_ONE_IN 8

/* Kinds of pointer the kernel must refuse whatever they point at. */
static bool refused_kind(int kind)
{
    return kind == P_KERNEL || kind == P_UNMAPPED || kind == P_NONCANON || kind == P_TOP ||
           kind == P_ALLONES;
}

static volatile long wake_count;

static void wake_handler(int sig, uint64_t addr, struct fl_sigframe *frame)
{
    (void)sig; (void)addr; (void)frame;
    wake_count++;
}

static bool constrain_sigsuspend(const struct fuzz_call *c, uint64_t *a)
{
    if (c->kind[0] == P_NULL || refused_kind(c->kind[0]))
        return false;                    /* -EFAULT, the mask untouched */
    uint64_t *mask = (uint64_t *)(self.region + SCRATCH_MASK);
    *mask = c->raw[0] & ~FL_SIGMASK(WAKE_SIG);
    a[0] = (uintptr_t)mask;
    uint64_t wake = FL_SIGMASK(WAKE_SIG);
    signal(WAKE_SIG, wake_handler);
    sigprocmask(SIG_BLOCK, &wake, NULL);
    tkill(gettid(), WAKE_SIG);
    return true;                         /* another pending signal may end it */
}

static bool constrain_sigtimedwait(const struct fuzz_call *c, uint64_t *a)
{
    if (refused_kind(c->kind[2]))
        return false;
    struct fl_timespec *ts = (struct fl_timespec *)(self.region + SCRATCH_TIME);
    uint64_t raw = c->raw[2];
    ts->tv_sec = 0;
    ts->tv_nsec = (long)(raw % (MAX_SLEEP_MS * NS_PER_MS));
    if (raw % BAD_TIMEOUT_ONE_IN == 0)
        ts->tv_nsec = (raw & 1) ? NS_PER_SEC + ts->tv_nsec : -1 - ts->tv_nsec;
    a[2] = (uintptr_t)ts;
    return false;
}

static void constrain_sigaltstack(const struct fuzz_call *c, uint64_t *a)
{
    if (c->kind[0] == P_NULL || refused_kind(c->kind[0]))
        return;
    static const uint64_t bad_sp[] = { 0, KERNEL_ADDR, UNMAPPED_LOW, NONCANONICAL };
    struct fl_stack *ss = (struct fl_stack *)(self.region + SCRATCH_STACK);
    uint64_t raw = c->raw[0];
    switch (raw % 4) {
    case 0:                              /* the whole play area */
        ss->ss_sp = (uintptr_t)self.play;
        ss->ss_size = PLAY_BYTES;
        break;
    case 1:                              /* part of it, maybe too small */
        ss->ss_sp = (uintptr_t)self.play + (raw >> 8) % PLAY_BYTES / 2;
        ss->ss_size = (raw >> 24) % (PLAY_BYTES / 2);
        break;
    case 2:                              /* somewhere the kernel must refuse */
        ss->ss_sp = bad_sp[(raw >> 8) % ARRAY_SIZE(bad_sp)];
        ss->ss_size = SIGSTKSZ;
        break;
    default:                             /* wrapping past the top */
        ss->ss_sp = (uintptr_t)self.play;
        ss->ss_size = ~0UL - (raw >> 8) % PAGE;
        break;
    }
    static const int flags[] = { 0, SS_ONSTACK, SS_DISABLE, SS_ONSTACK | SS_DISABLE, 0x40 };
    ss->ss_flags = flags[(raw >> 40) % ARRAY_SIZE(flags)];
    ss->ss_pad = 0;
    a[0] = (uintptr_t)ss;
}

bool constrain_signal_wait(const struct fuzz_call *c, long nr, uint64_t *a)
{
    switch (nr) {
    case SYS_sigsuspend:
        return constrain_sigsuspend(c, a);
    case SYS_sigtimedwait:
        return constrain_sigtimedwait(c, a);
    case SYS_sigaltstack:
        constrain_sigaltstack(c, a);
        return false;
    default:
        return false;
    }
}
