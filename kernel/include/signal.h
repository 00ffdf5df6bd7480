/*
 * POSIX-like signals (signal.c): per-process actions and pending set,
 * per-thread pending set, blocked mask and fault address.
 *
 * A signal is posted (kill, tkill, a user fault) by setting a pending bit
 * and making one thread that does not block it notice: woken from an
 * interruptible sleep, or interrupted by an IPI on its hart. It is
 * delivered on that thread's way back to user mode (user_return_prepare):
 * ignored, default action, or a handler entered on the user stack with a
 * struct fl_sigframe (and, for an FL_SA_SIGINFO handler, a struct
 * fl_siginfo above it), which sigreturn restores. sigsuspend and
 * sigtimedwait wait for signals (sigwait.c).
 *
 * Locks: proc.lock, then thread.lock (docs/architecture.md).
 */
#ifndef FAULTLINE_SIGNAL_H
#define FAULTLINE_SIGNAL_H

#include "proc.h"

/* Bit 0 of a thread's sig_pending is no signal (there is no signal 0)
 * but work for its way back to user mode: sigsuspend returned, and the
 * mask it replaced is to be restored once the handler it waited for is
 * entered (that handler's frame keeps it). Being in sig_pending, it costs
 * the hot path nothing: signal_maybe_pending() sees it with the rest. */
#define SIG_RESTORE_MASK  FL_SIGMASK(0)
/* The bits of a pending set or a mask that are signals. */
#define SIG_BITS          (((uint64_t)1 << NSIG) - 2)
#define SIG_UNBLOCKABLE   FL_SIGMASK(SIGKILL)
/* The code a user fault is posted with: its trap's kind (enum
 * trap_kind), turned into a si_code (and, for SIGILL and SIGTRAP, the
 * instruction's address) only for an FL_SA_SIGINFO handler, so other
 * catches pay nothing. A SIGSEGV page fault's SEGV_MAPERR or SEGV_ACCERR
 * takes the space's lock to find out. */
#define SIG_CODE_TRAP_BASE  INT32_MIN
#define SIG_CODE_TRAP_KINDS 16
#define SIG_CODE_TRAP(kind) (SIG_CODE_TRAP_BASE + (int)(kind))

/* The hot-path test on every return to user mode: two loads. Blocked
 * signals make it true too; signal_deliver() then finds nothing to do. */
static inline bool signal_maybe_pending(const struct thread *t)
{
    return (__atomic_load_n(&t->sig_pending, __ATOMIC_RELAXED) |
            __atomic_load_n(&t->proc->sig_pending, __ATOMIC_RELAXED)) != 0;
}

/* The slow part of the way back to user mode (user_boundary.c): ends the
 * thread or process if it is being killed, delivers a signal. */
void user_return_work(struct thread *t);

/* On the way back to user mode, interrupts off: the checks whether the
 * process is being killed and whether a signal may be pending, three loads
 * when neither is (every system call pays them: user_return_work_due),
 * then the accounting. May not return: the process is killed. */
static inline bool user_return_work_due(const struct thread *t)
{
    return __atomic_load_n(&t->proc->killed, __ATOMIC_RELAXED) || signal_maybe_pending(t);
}
static inline void user_return_prepare(struct thread *t)
{
    if (user_return_work_due(t))
        user_return_work(t);
    account_leave_kernel(t);
}

/* sigreturn for t, the current thread: restores its registers and mask
 * from the frame at its sp, or has it killed for a bad frame. Returns the
 * restored a0. */
long signal_return(struct thread *t);

/* Delivers the lowest deliverable signal of t (the current thread, about
 * to return to user mode, interrupts off). A default action that
 * terminates, or an unwritable stack, sets p->killed: the caller checks. */
void signal_deliver(struct thread *t);

/* True if the current thread should abandon an interruptible wait: its
 * process is being killed or it has a signal it does not block. */
bool thread_interrupted(void);

/* kill() of a catchable signal: caller holds p->lock. from: the
 * sender's pid (SI_USER), 0 for the kernel (SI_KERNEL). */
void signal_post_process(struct proc *p, int sig, int from);

/* A user fault with signal sig at addr (si_code code): posts it to the
 * current thread and returns true if a handler will catch it, else false
 * (the caller kills). */
bool signal_catch_fault(int sig, int code, uint64_t addr);

/* --- shared with sigwait.c (sigsuspend, sigtimedwait, sigaltstack) --- */

/* The lowest signal in a non-empty set: the index of its lowest set bit,
 * by de Bruijn multiplication (set & -set isolates the bit; the multiply
 * puts a distinct 6-bit pattern for each of the 64 positions in the top
 * bits). No loop over the signals, and no __builtin_ctzll, which without
 * Zbb becomes a libgcc call. Inline: delivery and sigsuspend use it. */
#define SIG_DEBRUIJN64       0x03f79d71b4ca8b09ULL
#define SIG_DEBRUIJN_SHIFT   58
extern const uint8_t signal_debruijn_index[64];
static inline int signal_lowest(uint64_t set)
{
    return signal_debruijn_index[((set & -set) * SIG_DEBRUIJN64) >> SIG_DEBRUIJN_SHIFT];
}
/* Makes p's pending sig t's own, so that no other thread of p takes it:
 * sigsuspend's claim, and a poster's hand-over to the taker it is sure of
 * (the sender itself, or a thread it wakes from a wait for signals),
 * which then finds it without p->lock. Caller holds p->lock, and t->lock
 * unless t is the current thread; a sleeping t reads its pending set only
 * once the wake-up's lock has ordered this before it runs. */
void signal_make_own(struct thread *t, struct proc *p, int sig);
/* Sets the current thread's own mask (see signal.c: ordered against posters). */
void signal_set_own_mask(struct thread *t, uint64_t blocked);
/* Signals t could take now: pending for it or its process, not blocked.
 * Inline: sigsuspend and every interruptible sleep ask it. */
static inline uint64_t signal_deliverable(const struct thread *t)
{
    uint64_t pending = __atomic_load_n(&t->sig_pending, __ATOMIC_RELAXED) |
                       __atomic_load_n(&t->proc->sig_pending, __ATOMIC_RELAXED);
    return pending & ~t->sig_blocked & SIG_BITS;
}
/* thread_interrupted() for t, the current thread, already in hand (the
 * sleep path asks it on every interruptible sleep). */
static inline bool signal_interrupts(const struct thread *t)
{
    const struct proc *p = t->proc;
    return p && (proc_killed(p) || signal_deliverable(t) != 0);
}
/* Takes the lowest signal of set pending for t (the thread's own first)
 * off its pending set and describes it in *info; 0 if there is none.
 * Caller holds t->proc->lock. */
int signal_take(struct thread *t, uint64_t set, struct fl_siginfo *info);
/* Puts a signal signal_take took back, pending for t. Caller holds p->lock. */
void signal_put_back(struct thread *t, const struct fl_siginfo *info);
/* Whether sp lies on t's alternate signal stack. */
bool signal_on_altstack(const struct thread *t, uint64_t sp);

/* fork: the child gets the parent's actions and the forking thread's mask. */
void signal_fork(struct thread *parent, struct proc *child, struct thread *child_thread);
/* exec: handled signals go back to SIG_DFL; ignored ones stay ignored. */
void signal_exec_reset(struct proc *p);

long sys_sigaction(uint64_t sig, uint64_t uact, uint64_t uold);
long sys_sigprocmask(uint64_t how, uint64_t uset, uint64_t uold);
long sys_sigreturn(void);
long sys_tkill(uint64_t tid, uint64_t sig);
long sys_sigpending(uint64_t uset);
long sys_sigsuspend(uint64_t umask);
long sys_sigaltstack(uint64_t uss, uint64_t uold);
long sys_sigtimedwait(uint64_t uset, uint64_t uinfo, uint64_t utimeout);

#endif
