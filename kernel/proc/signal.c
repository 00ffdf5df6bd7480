/*
 * Signals: actions, masks, posting, delivery on the way to user mode,
 * sigreturn, and user faults turned into catchable signals.
 * See kernel/include/signal.h for the model and include/faultline/abi.h
 * for the user-visible structures.
 */
#include "signal.h"
#include "meter.h"
#include "usercopy.h"
#include "kstring.h"
#include "printk.h"
#include "arch_api.h"
#include "aspace.h"
#include "trap.h"
#include <faultline/errno.h>

#define UNBLOCKABLE     SIG_UNBLOCKABLE
#define SA_KNOWN_FLAGS  (FL_SA_NODEFER | FL_SA_RESETHAND | FL_SA_SIGINFO | FL_SA_ONSTACK)
#define FRAME_ALIGN     16          /* the RISC-V ABI's stack alignment */
#define NO_FRAME        (~(uint64_t)0 & ~(uint64_t)(FRAME_ALIGN - 1))   /* fails user_range_ok */
/* Action flags that place or extend the frame (enter_handler's slow part). */
#define SA_FRAME_FLAGS  (FL_SA_SIGINFO | FL_SA_ONSTACK)

_Static_assert(FL_NREGS == ARCH_NREGS, "the signal frame holds the whole register file");
_Static_assert(NSIG <= 64, "a mask is one uint64_t");

static bool sig_valid(uint64_t sig) { return sig > 0 && sig < NSIG; }

static bool user_code_addr(uint64_t a) { return a >= USER_BASE && a < USER_TOP; }

static bool has_handler(const struct fl_sigaction *a)
{
    return a->handler != SIG_DFL && a->handler != SIG_IGN;
}

/* Whether sig under action a is simply dropped. */
static bool ignores(const struct fl_sigaction *a, int sig)
{
    return a->handler == SIG_IGN || (a->handler == SIG_DFL && sig == SIGCHLD);
}

/* signal_lowest's table (signal.h). */
const uint8_t signal_debruijn_index[64] = {
     0,  1, 56,  2, 57, 49, 28,  3, 61, 58, 42, 50, 38, 29, 17,  4,
    62, 47, 59, 36, 45, 43, 51, 22, 53, 39, 33, 30, 24, 18, 12,  5,
    63, 55, 48, 27, 60, 41, 37, 16, 46, 35, 44, 21, 52, 32, 23, 11,
    54, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19,  9, 13,  8,  7,  6,
};


static bool thread_live(const struct thread *t)
{
    return t->state != T_UNUSED && t->state != T_ZOMBIE && t->state != T_DEAD && !t->exited;
}

/*
 * Sets the calling thread's own mask without t->lock. Only the thread
 * changes its mask; a poster reads it under t->lock, but right after
 * setting the pending bit with a full barrier (post_to_thread,
 * signal_post_process). With the fence here, either the poster sees the
 * new mask (and interrupts us), or our check of the pending sets on the
 * way out sees its bit: a signal unblocked here is never left pending
 * unnoticed. An unchanged mask is not written at all.
 */
void signal_set_own_mask(struct thread *t, uint64_t blocked)
{
    if (blocked == t->sig_blocked)
        return;
    __atomic_store_n(&t->sig_blocked, blocked, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* Makes t look at its signals soon: wakes it from a sleep (interruptible
 * waits then return -EINTR; others go back to sleep) or interrupts the
 * hart it runs on. The current thread needs nothing: it checks on its way
 * out of the kernel. Caller holds t->lock. */
static void interrupt_thread(struct thread *t)
{
    if (t->state == T_SLEEPING) {
        make_runnable(t);
    } else if (t->state == T_RUNNING && t->cpu >= 0 && &cpus[t->cpu] != this_cpu()) {
        /* probe: IPI sent. Stamped just before the send, since the target
         * may take the interrupt before this hart runs another instruction. */
        t->sig_ipi_at = meter_now();
        meter_record(FL_METER_SIGNAL_POST_TO_IPI, t->sig_posted_at, t->sig_ipi_at);
        cpu_send_ipi(&cpus[t->cpu], IPI_RESCHEDULE);
    }
}

/* Whether a signal sig posted now should make t look: it does not block
 * it, or it waits for it in sigtimedwait. Caller holds t->lock, or t is
 * the current thread (only t writes its mask and its sigtimedwait set). */
static bool wants(const struct thread *t, int sig)
{
    return !(t->sig_blocked & FL_SIGMASK(sig)) || (t->sig_waiting & FL_SIGMASK(sig));
}

/* Caller holds p->lock (t is p's). Every poster and dequeue() hold it, so
 * it alone orders the pending bits and their origins; t->lock is for t's
 * state, which interrupting it reads. */
static void post_to_thread(struct thread *t, int sig, int code, int pid, uint64_t addr)
{
    /* Full barrier: the mask is read after the bit is set (set_own_mask). */
    __atomic_or_fetch(&t->sig_pending, FL_SIGMASK(sig), __ATOMIC_SEQ_CST);
    struct sig_origin *from = &t->sig_from[sig];
    from->code = code;
    from->pid = pid;
    from->addr = addr;
    t->sig_posted_at = meter_now();                           /* probe: signal posted */
    /* A signal to oneself (tkill of self, a caught fault) needs no
     * interrupting: the thread checks on its way out. */
    if (t == current_thread())
        return;
    spin_lock(&t->lock);
    if (wants(t, sig))
        interrupt_thread(t);
    spin_unlock(&t->lock);
}

void signal_make_own(struct thread *t, struct proc *p, int sig)
{
    uint64_t bit = FL_SIGMASK(sig);
    t->sig_from[sig] = p->sig_from[sig];
    __atomic_and_fetch(&p->sig_pending, ~bit, __ATOMIC_RELAXED);
    __atomic_or_fetch(&t->sig_pending, bit, __ATOMIC_RELAXED);
}

/* Tries t as the taker of a process-directed sig; true if it took it.
 * Caller holds p->lock. */
static bool try_notify(struct thread *t, struct proc *p, int sig, uint64_t posted)
{
    bool took = false;
    spin_lock(&t->lock);
    if (t->proc == p && thread_live(t) && wants(t, sig)) {
        t->sig_posted_at = posted;
        if (t->state == T_SLEEPING && t->chan == &t->sig_waiting)
            signal_make_own(t, p, sig);
        interrupt_thread(t);
        took = true;
    }
    spin_unlock(&t->lock);
    return took;
}

/* The first thread of p that does not block sig. If every thread blocks
 * it, it stays pending until one unblocks it. Out of line, so that a
 * signal to oneself does not save the registers of the loop. */
static __attribute__((noinline)) void notify_a_thread(struct proc *p, int sig, uint64_t posted)
{
    for (int i = 0; i < MAX_THREADS; i++)
        if (threads[i].proc == p && try_notify(&threads[i], p, sig, posted))
            return;
}

void signal_post_process(struct proc *p, int sig, int from)
{
    if (ignores(&p->sig_actions[sig], sig))
        return;
    /* Full barrier: the masks are read after the bit is set (set_own_mask). */
    __atomic_or_fetch(&p->sig_pending, FL_SIGMASK(sig), __ATOMIC_SEQ_CST);
    p->sig_from[sig] = (struct sig_origin){ from ? SI_USER : SI_KERNEL, from, 0 };
    uint64_t posted = meter_now();                            /* probe: signal posted */
    /* The sender itself is the cheapest taker: it delivers on its way out,
     * so it needs no interrupting, and what try_notify would check under
     * its lock is its own to read: it is running (live), and only it
     * writes its mask and its sigtimedwait set. The signal becomes its
     * own, so that its delivery needs no p->lock (dequeue_own). */
    struct thread *self = current_thread();
    if (self && self->proc == p && wants(self, sig)) {
        self->sig_posted_at = posted;
        signal_make_own(self, p, sig);
        return;
    }
    notify_a_thread(p, sig, posted);
}

bool thread_interrupted(void)
{
    struct thread *t = current_thread();
    return t && signal_interrupts(t);
}

bool signal_catch_fault(int sig, int code, uint64_t addr)
{
    struct thread *t = current_thread();
    struct proc *p = t->proc;
    if (!sig_valid((uint64_t)sig) || sig == SIGKILL)
        return false;
    spin_lock(&p->lock);
    /* A fault while its signal is blocked (inside its own handler, say)
     * cannot be caught: resuming would fault again at once. */
    bool caught = has_handler(&p->sig_actions[sig]) && !(t->sig_blocked & FL_SIGMASK(sig));
    if (caught)
        post_to_thread(t, sig, code, 0, addr);
    spin_unlock(&p->lock);
    return caught;
}

/* ---------------------------------------------------------------- delivery */

/* What dequeue() hands to delivery. */
struct delivery {
    int      sig;
    struct sig_origin from;
    uint64_t old_blocked;
    struct fl_sigaction act;
};

/* Takes sig off t's pending set, or else its process's, and says where
 * it came from. Caller holds p->lock. */
static inline __attribute__((always_inline)) struct sig_origin unpend(struct thread *t, int sig)
{
    struct proc *p = t->proc;
    uint64_t bit = FL_SIGMASK(sig);
    if (t->sig_pending & bit) {
        __atomic_and_fetch(&t->sig_pending, ~bit, __ATOMIC_RELAXED);
        return t->sig_from[sig];
    }
    __atomic_and_fetch(&p->sig_pending, ~bit, __ATOMIC_RELAXED);
    return p->sig_from[sig];
}

/*
 * dequeue() without p->lock, where nothing it touches needs it: a process
 * of one thread (t itself, which is here, so no other can be created
 * meanwhile) whose lowest deliverable signal is t's own (a tkill, a fault,
 * or one sigsuspend claimed), caught by a handler that is not reset on
 * delivery. Then t's pending bits and their origins are written by t
 * alone (tkill reaches only the caller's own threads; faults and
 * sigsuspend's claim are t's; a hand-over writes them in t's own kill, or
 * while t sleeps, and the wake-up's lock orders that before t runs), and
 * so are the actions (sigaction, exec);
 * other processes post only to p->sig_pending and p->sig_from, under
 * p->lock, and a signal of theirs posted meanwhile is seen on the way out
 * (the pending check runs again after this). False: take the locked way.
 */
static bool dequeue_own(struct thread *t, struct delivery *d)
{
    struct proc *p = t->proc;
    uint64_t own = __atomic_load_n(&t->sig_pending, __ATOMIC_RELAXED);
    uint64_t unblocked = ~t->sig_blocked & SIG_BITS;
    /* Cheapest test first: none of t's own (a signal from another
     * process stays the process's, whose origin other posters write
     * under p->lock, unless it woke t from a wait for signals). */
    if (!(own & unblocked) || __atomic_load_n(&p->nthreads, __ATOMIC_RELAXED) != 1)
        return false;
    uint64_t ready = (own | __atomic_load_n(&p->sig_pending, __ATOMIC_RELAXED)) & unblocked;
    int sig = signal_lowest(ready);
    uint64_t bit = FL_SIGMASK(sig);
    const struct fl_sigaction *a = &p->sig_actions[sig];
    if (!(own & bit) || !has_handler(a) || (a->flags & FL_SA_RESETHAND))
        return false;
    uint64_t before = t->sig_blocked;
    if (own & SIG_RESTORE_MASK)
        before = t->sig_saved_blocked;    /* the handler's frame keeps it */
    __atomic_and_fetch(&t->sig_pending, ~(bit | SIG_RESTORE_MASK), __ATOMIC_RELAXED);
    d->from = t->sig_from[sig];
    d->sig = sig;
    d->act = *a;
    d->old_blocked = before;
    uint64_t block = a->mask | ((a->flags & FL_SA_NODEFER) ? 0 : bit);
    t->sig_blocked = (t->sig_blocked | block) & ~UNBLOCKABLE;
    return true;
}

/* Takes the lowest deliverable signal off t's or its process's pending set
 * and, for a handler, blocks what the handler's run must block. Ignored
 * signals are dropped on the way. Returns false if nothing is left.
 * t is the current thread. p->lock alone suffices: every poster holds it
 * while it sets t's pending bits and fault address, and only t itself
 * writes its mask (a poster that reads the mask before it grows here only
 * interrupts t for nothing).
 *
 * After sigsuspend (SIG_RESTORE_MASK) the mask to come back to is the one
 * sigsuspend replaced: the handler's frame keeps it, or, if no handler
 * runs, it is restored here. */
static bool dequeue(struct thread *t, struct delivery *d)
{
    struct proc *p = t->proc;
    bool found = false;
    if (dequeue_own(t, d))
        return true;
    spin_lock(&p->lock);
    uint64_t before = t->sig_blocked;
    bool restore = t->sig_pending & SIG_RESTORE_MASK;
    if (restore) {
        __atomic_and_fetch(&t->sig_pending, ~SIG_RESTORE_MASK, __ATOMIC_RELAXED);
        before = t->sig_saved_blocked;
    }
    /* Bit 0 is clear now: what is left are signals. */
    for (;;) {
        uint64_t ready = (t->sig_pending | p->sig_pending) & ~t->sig_blocked;
        if (!ready)
            break;
        int sig = signal_lowest(ready);
        uint64_t bit = FL_SIGMASK(sig);
        d->from = unpend(t, sig);
        struct fl_sigaction *a = &p->sig_actions[sig];
        if (ignores(a, sig))
            continue;
        d->sig = sig;
        d->act = *a;
        d->old_blocked = before;
        if (has_handler(a)) {
            uint64_t block = a->mask | ((a->flags & FL_SA_NODEFER) ? 0 : bit);
            t->sig_blocked = (t->sig_blocked | block) & ~UNBLOCKABLE;
            if (a->flags & FL_SA_RESETHAND)
                memset(a, 0, sizeof *a);
        } else {
            proc_set_killed(p, sig);  /* default action: terminate */
        }
        found = true;
        break;
    }
    if (restore && !(found && has_handler(&d->act)))
        signal_set_own_mask(t, before);
    spin_unlock(&p->lock);
    return found;
}

bool signal_on_altstack(const struct thread *t, uint64_t sp)
{
    /* As the stack grows down, its top is on it and its base is not. */
    return t->sig_altstack_size && sp > t->sig_altstack_sp &&
           sp - t->sig_altstack_sp <= t->sig_altstack_size;
}

/* Where the handler's frame (size bytes) goes when the action or the
 * thread has an alternate stack: below the interrupted sp, or at the top
 * of the alternate stack for an FL_SA_ONSTACK handler not already on it.
 * An address no range check passes if it does not fit there. */
static __attribute__((noinline, cold)) uint64_t frame_place(const struct thread *t, const struct delivery *d, uint64_t size)
{
    uint64_t sp = tf_sp(&t->tf);
    bool alt = signal_on_altstack(t, sp);
    if (!alt && (d->act.flags & FL_SA_ONSTACK) && t->sig_altstack_size) {
        sp = t->sig_altstack_sp + t->sig_altstack_size;
        alt = true;
    }
    uint64_t frame = (sp - size) & ~(uint64_t)(FRAME_ALIGN - 1);
    if (alt && (frame < t->sig_altstack_sp || frame > sp))
        return NO_FRAME;             /* the alternate stack overflowed */
    return frame;
}

/* SEGV_MAPERR or SEGV_ACCERR for a page fault at addr: whether anything
 * is mapped there (a region), which the fault path did not say. */
static int segv_code(struct proc *p, uint64_t addr)
{
    sleeplock_acquire(&p->as->lock);
    bool mapped = aspace_find_region(p->as, addr) != NULL;
    sleeplock_release(&p->as->lock);
    return mapped ? SEGV_ACCERR : SEGV_MAPERR;
}

/* The siginfo of sig from `from` for t, which is about to take it. A
 * fault's code is worked out here (SIG_CODE_TRAP); may_sleep: whether
 * a SIGSEGV page fault may take the space's lock to tell SEGV_MAPERR from
 * SEGV_ACCERR. */
static void fill_info(struct fl_siginfo *info, const struct thread *t, int sig,
                      struct sig_origin from, bool may_sleep)
{
    *info = (struct fl_siginfo){
        .si_signo = sig, .si_code = from.code, .si_pid = from.pid, .si_addr = from.addr,
    };
    uint32_t kind = (uint32_t)from.code - (uint32_t)SIG_CODE_TRAP_BASE;
    if (kind >= SIG_CODE_TRAP_KINDS)
        return;
    info->si_code = trap_si_code((int)kind, sig);
    if (kind == TRAP_ILLEGAL || kind == TRAP_BREAKPOINT)
        info->si_addr = tf_pc(&t->tf);     /* not yet left: the instruction's own */
    else if (kind == TRAP_PAGE_FAULT && sig == SIGSEGV && may_sleep)
        info->si_code = segv_code(t->proc, info->si_addr);
}

/* The handler's siginfo, at uinfo (checked with the frame). Interrupts on. */
static __attribute__((noinline, cold)) long push_siginfo(struct thread *t, const struct delivery *d, uint64_t uinfo)
{
    struct fl_siginfo info;
    fill_info(&info, t, d->sig, d->from, true);
    return copy_to_user(uinfo, &info, sizeof info);
}

/* Builds the frame on the user stack and points t at the handler. On an
 * unwritable stack the process is killed with SIGSEGV instead. A plain
 * handler on a thread with no alternate stack (the common case, which
 * lat measures) pays two loads and a branch for the rest. */
static void enter_handler(struct thread *t, const struct delivery *d)
{
    uint64_t size = sizeof(struct fl_sigframe);
    bool extras = (d->act.flags & SA_FRAME_FLAGS) || t->sig_altstack_size;
    bool siginfo = extras && (d->act.flags & FL_SA_SIGINFO);
    uint64_t frame;
    if (__builtin_expect(!extras, 1)) {
        /* Below the interrupted sp; a wrap-around lands above USER_TOP and
         * fails the range check like any other bad stack. */
        frame = (tf_sp(&t->tf) - size) & ~(uint64_t)(FRAME_ALIGN - 1);
    } else {
        if (siginfo)
            size += sizeof(struct fl_siginfo);
        frame = frame_place(t, d, size);
    }
    uint64_t uinfo = frame + sizeof(struct fl_sigframe);
    /* The range is checked once for the whole frame (and siginfo), which
     * is then written register by register straight from the trapframe
     * (no copy in between). */
    long rc = -EFAULT;
    if (user_range_ok(frame, size)) {
        /* The stores may fault in a stack page, which may sleep. */
        arch_intr_on();
        rc = arch_sigframe_push(frame, &t->tf, (uint64_t)d->sig, d->from.addr, d->old_blocked);
        if (!rc && siginfo)
            rc = push_siginfo(t, d, uinfo);
        arch_intr_off();
    }
    if (rc) {
        proc_user_fault("signal frame not writable", tf_pc(&t->tf), frame, SIGSEGV);
        return;
    }
    tf_enter_handler(&t->tf, d->act.handler, d->act.restorer, frame, (uint64_t)d->sig,
                     siginfo ? uinfo : d->from.addr);
    /* probe: handler entered (the next user instruction is the handler's).
     * Interrupts are off again here: no masking around the record. */
    meter_record_irqs_off(FL_METER_SIGNAL_INTERRUPT_TO_HANDLER, t->sig_interrupted_at, meter_now());
}

void signal_deliver(struct thread *t)
{
    /* probe: target interrupted. A remote target's IPI handler stamped it
     * already; a thread signalled by itself is "interrupted" here. */
    if (!t->sig_interrupted_at)
        t->sig_interrupted_at = meter_now();
    struct delivery d;
    if (!dequeue(t, &d))
        return;
    if (has_handler(&d.act))
        enter_handler(t, &d);
    t->sig_interrupted_at = 0;
    t->sig_ipi_at = 0;     /* an IPI that found us already on our way out */
}

int signal_take(struct thread *t, uint64_t set, struct fl_siginfo *info)
{
    struct proc *p = t->proc;
    uint64_t ready = t->sig_pending & set & SIG_BITS;
    if (!ready)
        ready = p->sig_pending & set & SIG_BITS;
    if (!ready)
        return 0;
    int sig = signal_lowest(ready);
    fill_info(info, t, sig, unpend(t, sig), false);
    return sig;
}

void signal_put_back(struct thread *t, const struct fl_siginfo *info)
{
    int sig = info->si_signo;
    __atomic_or_fetch(&t->sig_pending, FL_SIGMASK(sig), __ATOMIC_SEQ_CST);
    t->sig_from[sig] = (struct sig_origin){ info->si_code, info->si_pid, info->si_addr };
}

/* ---------------------------------------------------------------- fork, exec */

void signal_fork(struct thread *parent, struct proc *child, struct thread *child_thread)
{
    struct proc *pp = parent->proc;
    spin_lock(&pp->lock);
    memcpy(child->sig_actions, pp->sig_actions, sizeof child->sig_actions);
    spin_unlock(&pp->lock);
    child->sig_pending = 0;
    child_thread->sig_pending = 0;
    child_thread->sig_blocked = parent->sig_blocked;
    /* The child runs on a copy of the parent's memory: its alternate stack too. */
    child_thread->sig_altstack_sp = parent->sig_altstack_sp;
    child_thread->sig_altstack_size = parent->sig_altstack_size;
}

void signal_exec_reset(struct proc *p)
{
    /* The alternate stack was in the old image. */
    struct thread *t = current_thread();
    t->sig_altstack_sp = t->sig_altstack_size = 0;
    spin_lock(&p->lock);
    for (int sig = 1; sig < NSIG; sig++) {
        struct fl_sigaction *a = &p->sig_actions[sig];
        bool ignored = a->handler == SIG_IGN;
        memset(a, 0, sizeof *a);
        if (ignored)
            a->handler = SIG_IGN;
    }
    spin_unlock(&p->lock);
}

/* ---------------------------------------------------------------- system calls */

/* Drops sig from every pending set of p (it became ignored). Caller holds p->lock. */
static void discard_pending(struct proc *p, int sig)
{
    __atomic_and_fetch(&p->sig_pending, ~FL_SIGMASK(sig), __ATOMIC_RELAXED);
    for (int i = 0; i < MAX_THREADS; i++) {
        struct thread *t = &threads[i];
        if (t->proc != p)
            continue;
        spin_lock(&t->lock);
        if (t->proc == p)
            __atomic_and_fetch(&t->sig_pending, ~FL_SIGMASK(sig), __ATOMIC_RELAXED);
        spin_unlock(&t->lock);
    }
}

static long check_action(uint64_t sig, const struct fl_sigaction *a)
{
    if (sig == SIGKILL || (a->flags & ~SA_KNOWN_FLAGS))
        return -EINVAL;
    if (has_handler(a) && (!user_code_addr(a->handler) || !user_code_addr(a->restorer)))
        return -EFAULT;
    return 0;
}

long sys_sigaction(uint64_t sig, uint64_t uact, uint64_t uold)
{
    if (!sig_valid(sig))
        return -EINVAL;
    struct fl_sigaction act, old;
    if (uact) {
        if (copy_from_user(&act, uact, sizeof act))
            return -EFAULT;
        long rc = check_action(sig, &act);
        if (rc)
            return rc;
        act.mask &= ~UNBLOCKABLE;
        act.pad = 0;
    }
    if (uold && !user_range_ok(uold, sizeof old))
        return -EFAULT;
    struct proc *p = current_proc();
    spin_lock(&p->lock);
    old = p->sig_actions[sig];
    if (uact) {
        p->sig_actions[sig] = act;
        if (ignores(&act, (int)sig))
            discard_pending(p, (int)sig);
    }
    spin_unlock(&p->lock);
    if (uold && copy_to_user(uold, &old, sizeof old))
        return -EFAULT;
    return 0;
}

static long apply_mask(uint64_t how, uint64_t set, uint64_t *blocked)
{
    switch (how) {
    case SIG_BLOCK:   *blocked |= set;  break;
    case SIG_UNBLOCK: *blocked &= ~set; break;
    case SIG_SETMASK: *blocked = set;   break;
    default:          return -EINVAL;
    }
    *blocked &= ~UNBLOCKABLE;
    return 0;
}

long sys_sigprocmask(uint64_t how, uint64_t uset, uint64_t uold)
{
    struct thread *t = current_thread();
    uint64_t set = 0;
    if (uset && copy_from_user(&set, uset, sizeof set))
        return -EFAULT;
    if (uset && how != SIG_BLOCK && how != SIG_UNBLOCK && how != SIG_SETMASK)
        return -EINVAL;
    /* Only this thread changes its mask, so the old value can be written
     * out first: a bad pointer then fails with nothing changed. */
    if (uold && copy_to_user(uold, &t->sig_blocked, sizeof t->sig_blocked))
        return -EFAULT;
    if (!uset)
        return 0;
    uint64_t blocked = t->sig_blocked;
    long rc = apply_mask(how, set, &blocked);
    signal_set_own_mask(t, blocked);
    /* Newly unblocked pending signals are delivered on the way out. */
    return rc;
}

long sys_sigpending(uint64_t uset)
{
    struct thread *t = current_thread();
    /* Plain loads: a snapshot is all sigpending promises. */
    uint64_t set = (t->sig_pending | t->proc->sig_pending) & SIG_BITS;
    return copy_to_user(uset, &set, sizeof set) ? -EFAULT : 0;
}

/* The tid is checked first, whatever the signal: SIGKILL to a tid that is
 * not one of the caller's live threads is ESRCH, like any other. */
long sys_tkill(uint64_t tid, uint64_t sig)
{
    struct thread *self = current_thread();
    struct proc *p = self->proc;
    if (!sig_valid(sig))
        return -EINVAL;
    /* A signal to oneself needs no search of the thread table. */
    struct thread *t = tid == (uint64_t)self->tid ? self : thread_by_tid((int)tid);
    if (!t || tid == 0)
        return -ESRCH;
    long rc = -ESRCH;
    spin_lock(&p->lock);
    if (t->proc == p && t->tid == (int)tid && thread_live(t)) {
        if (sig == SIGKILL) {
            spin_unlock(&p->lock);
            return proc_kill(p->pid, SIGKILL);   /* ends the whole process */
        }
        if (!ignores(&p->sig_actions[sig], (int)sig))
            post_to_thread(t, (int)sig, SI_TKILL, p->pid, 0);
        rc = 0;
    }
    spin_unlock(&p->lock);
    return rc;
}

/*
 * The handler returned to the restorer with sp at its frame (where it
 * started). Restores every register and the mask from the frame; a frame
 * without the magic or with a non-user pc kills the process. Returns the
 * restored a0, which the dispatcher stores back as the "result".
 */
long signal_return(struct thread *t)
{
    uint64_t entered = meter_now();                           /* probe: sigreturn entered */
    uint64_t at = tf_sp(&t->tf);
    uint64_t pc = tf_pc(&t->tf);
    uint64_t blocked;
    /* One range check, then the registers go straight into the trapframe. */
    if (!user_range_ok(at, sizeof(struct fl_sigframe)) ||
        arch_sigframe_pop(&t->tf, at, &blocked)) {
        proc_user_fault("bad signal frame", pc, at, SIGSEGV);
        return -EFAULT;
    }
    signal_set_own_mask(t, blocked & ~UNBLOCKABLE);
    meter_record(FL_METER_SIGNAL_SIGRETURN_TO_RESTORED, entered, meter_now());  /* probe: context restored */
    return (long)tf_args(&t->tf)[0];      /* a0, as restored */
}

long sys_sigreturn(void)
{
    return signal_return(current_thread());
}
