/*
 * Waiting for signals, and the alternate signal stack: sigsuspend (and
 * the library's pause, which is sigsuspend with the mask unchanged),
 * sigtimedwait, sigaltstack. Posting and delivery are signal.c's.
 *
 * No lost wake-ups: every poster sets its pending bit, then takes the
 * thread's lock to look whether to wake it, and a waiter's last check
 * before it sleeps runs under that same lock (sleep_common, via
 * signal_interrupts). So a signal posted from any hart is either seen by
 * the check or finds the thread asleep and wakes it. sigtimedwait also
 * holds its process's lock across its own checks and the sleep
 * (sleep_on_intr lets go of it only once the thread is marked asleep),
 * for signal_take; sigsuspend needs it only to claim a signal.
 */
#include "signal.h"
#include "ktime.h"
#include "usercopy.h"
#include <faultline/errno.h>

#define NS_PER_SEC  1000000000L

/*
 * Makes sure a signal t may take now stays t's: a process-directed one
 * is moved to t's own pending set, where no other thread of the process
 * can take it first (sigsuspend must return only once its handler runs).
 * True if t has one. Caller holds p->lock.
 */
static bool claim_deliverable(struct thread *t)
{
    uint64_t ready = signal_deliverable(t);
    if (!ready)
        return false;
    if (!(t->sig_pending & ready))
        signal_make_own(t, t->proc, signal_lowest(ready));
    return true;
}

/*
 * sigsuspend: the mask becomes *umask until a signal it lets through is
 * delivered; the call then returns -EINTR, the handler having been
 * entered on the way out with the old mask in its frame (dequeue in
 * signal.c restores it from sig_saved_blocked, the SIG_RESTORE_MASK bit
 * saying so). A signal whose default ends the process ends it.
 *
 * p->lock is taken only to claim a process-directed signal. The checks
 * before sleeping are peeks: sleep_common looks again under t->lock, which
 * every poster takes after setting its bit, so a signal posted after a
 * peek either is seen there or finds the thread asleep and wakes it. A
 * poster that wakes the thread here hands it the signal as its own
 * (signal.c, try_notify), so the common wake-up needs no p->lock at all.
 */
long sys_sigsuspend(uint64_t umask)
{
    uint64_t mask;
    if (copy_from_user(&mask, umask, sizeof mask))
        return -EFAULT;
    struct thread *t = current_thread();
    struct proc *p = t->proc;
    t->sig_saved_blocked = t->sig_blocked;
    signal_set_own_mask(t, mask & ~SIG_UNBLOCKABLE);
    for (;;) {
        if (proc_killed(p))
            break;
        uint64_t ready = signal_deliverable(t);
        if (ready & __atomic_load_n(&t->sig_pending, __ATOMIC_RELAXED))
            break;                       /* t's own: no other thread takes it */
        if (ready) {
            spin_lock(&p->lock);
            bool claimed = claim_deliverable(t);
            spin_unlock(&p->lock);
            if (claimed)
                break;
            continue;                    /* another thread took it first */
        }
        spin_lock(&t->lock);
        sleep_on_intr(&t->sig_waiting, &t->lock);     /* woken by posters, not by chan */
        spin_unlock(&t->lock);
    }
    __atomic_or_fetch(&t->sig_pending, SIG_RESTORE_MASK, __ATOMIC_RELAXED);
    return -EINTR;
}

/* The set a sigtimedwait sleeps for, seen by posters under t->lock. */
static void set_waiting(struct thread *t, uint64_t set)
{
    spin_lock(&t->lock);
    t->sig_waiting = set;
    spin_unlock(&t->lock);
}

/* Waits until a signal of set is pending (taken into *info: its number),
 * another signal t does not block is (-EINTR: delivered on the way out),
 * the process is being killed (-EINTR), or deadline passes (-EAGAIN;
 * timed false: never). */
static long wait_for_set(struct thread *t, uint64_t set, bool timed, uint64_t deadline,
                         struct fl_siginfo *info)
{
    struct proc *p = t->proc;
    void *tick = timed ? time_tick_waiters(1) : NULL;
    long rc;
    spin_lock(&p->lock);
    set_waiting(t, set);
    for (;;) {
        int sig = signal_take(t, set, info);
        if (sig) {
            rc = sig;
            break;
        }
        if (proc_killed(p) || signal_deliverable(t)) {
            rc = -EINTR;
            break;
        }
        if (timed && time_reached(deadline)) {
            rc = -EAGAIN;
            break;
        }
        /* A timed wait sleeps on the tick, which wakes it to look at the
         * clock; posters wake either kind. */
        sleep_on_intr(timed ? tick : &t->sig_waiting, &p->lock);
    }
    set_waiting(t, 0);
    spin_unlock(&p->lock);
    if (timed)
        time_tick_waiters(-1);
    return rc;
}

/*
 * sigtimedwait: takes one signal of *uset without running its handler.
 * The set's signals are normally blocked (else they may be delivered
 * before the call); SIGKILL is never waited for. A NULL timeout waits
 * for ever. If *uinfo cannot be written the signal is put back pending
 * and the call fails with -EFAULT: nothing is lost.
 */
long sys_sigtimedwait(uint64_t uset, uint64_t uinfo, uint64_t utimeout)
{
    uint64_t set;
    struct fl_siginfo info;
    if (copy_from_user(&set, uset, sizeof set))
        return -EFAULT;
    set &= SIG_BITS & ~SIG_UNBLOCKABLE;
    if (uinfo && !user_range_ok(uinfo, sizeof info))
        return -EFAULT;
    uint64_t deadline = 0;
    if (utimeout) {
        struct fl_timespec ts;
        if (copy_from_user(&ts, utimeout, sizeof ts))
            return -EFAULT;
        if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= NS_PER_SEC)
            return -EINVAL;
        deadline = time_deadline((uint64_t)ts.tv_sec, (uint64_t)ts.tv_nsec);
    }
    struct thread *t = current_thread();
    long rc = wait_for_set(t, set, utimeout != 0, deadline, &info);
    if (rc > 0 && uinfo && copy_to_user(uinfo, &info, sizeof info)) {
        spin_lock(&t->proc->lock);
        signal_put_back(t, &info);
        spin_unlock(&t->proc->lock);
        return -EFAULT;
    }
    return rc;
}

/*
 * sigaltstack: the calling thread's alternate stack for FL_SA_ONSTACK
 * handlers. It may not be changed while the thread runs on it (EPERM);
 * ss_flags is 0 or SS_ONSTACK to set one, SS_DISABLE to have none; a
 * stack smaller than MINSIGSTKSZ is ENOMEM, one outside user space
 * EFAULT. *uold is written before anything changes, so a bad uold fails
 * with the old stack still in place. Only the thread itself touches its
 * stack's fields: no lock.
 */
long sys_sigaltstack(uint64_t uss, uint64_t uold)
{
    struct thread *t = current_thread();
    bool on = signal_on_altstack(t, tf_sp(&t->tf));
    struct fl_stack ss;
    if (uss) {
        if (copy_from_user(&ss, uss, sizeof ss))
            return -EFAULT;
        if (on)
            return -EPERM;
        if (ss.ss_flags != 0 && ss.ss_flags != SS_ONSTACK && ss.ss_flags != SS_DISABLE)
            return -EINVAL;
        if (ss.ss_flags != SS_DISABLE) {
            if (ss.ss_size < MINSIGSTKSZ)
                return -ENOMEM;
            if (!user_range_ok(ss.ss_sp, ss.ss_size))
                return -EFAULT;
        }
    }
    if (uold) {
        struct fl_stack old = {
            .ss_sp = t->sig_altstack_sp,
            .ss_size = t->sig_altstack_size,
            .ss_flags = !t->sig_altstack_size ? SS_DISABLE : on ? SS_ONSTACK : 0,
        };
        if (copy_to_user(uold, &old, sizeof old))
            return -EFAULT;
    }
    if (uss) {
        bool disable = ss.ss_flags == SS_DISABLE;
        t->sig_altstack_sp = disable ? 0 : ss.ss_sp;
        t->sig_altstack_size = disable ? 0 : ss.ss_size;
    }
    return 0;
}
