/*
 * Messages between a suspended thread and its handler (ulf_internal.h).
 *
 * The mechanism is L4's rather than the Cache Kernel's upcall: a fault or
 * a forwarded system call becomes a message queued on the handler, and
 * the thread sleeps in the kernel until a handler thread, blocked in
 * ulf_recv, has taken the message and answered with ulf_resume. The
 * faulting thread never runs handler code, so the handler needs no
 * stack in it, its registers stay where the trap saved them for ulf_regs,
 * and on two harts the two threads meet only under the ulf lock
 * (docs/ulf.md says why, and what it costs).
 */
#include "ulf_internal.h"
#include "signal.h"
#include "usercopy.h"
#include "meter.h"
#include "syscall.h"
#include <faultline/errno.h>

_Static_assert(ACCESS_READ == FL_ULF_READ && ACCESS_WRITE == FL_ULF_WRITE &&
               ACCESS_EXEC == FL_ULF_EXEC, "enum access is the message's access");
_Static_assert(ARCH_NREGS == FL_ULF_NREGS, "ulf_regs moves the whole user context");

struct spinlock ulf_lock = SPINLOCK_INIT("ulf", LOCK_RANK_ULF);
static struct ulf_wait waits[MAX_THREADS];

void ulf_wake_receivers(struct ulf_handler *h)
{
    /* One receiver, the usual case: woken directly, not by a scan of
     * every thread (this is on the measured transfer). */
    if (h->nreceivers == 1 && h->receiver)
        wakeup_thread_next(h->receiver, h);
    else if (h->nreceivers)
        wakeup(h);
}

static void enqueue(struct ulf_handler *h, struct ulf_wait *w)
{
    w->next = NULL;
    w->h = h;
    w->state = W_QUEUED;
    if (h->tail)
        h->tail->next = w;
    else
        h->head = w;
    h->tail = w;
    ulf_wake_receivers(h);
}

/* Takes w off whichever list of its handler it is on. */
static void unlink_wait(struct ulf_wait *w)
{
    struct ulf_handler *h = w->h;
    struct ulf_wait **pp = w->state == W_QUEUED ? &h->head : &h->taken, *prev = NULL;
    for (; *pp && *pp != w; pp = &(*pp)->next)
        prev = *pp;
    if (!*pp)
        return;
    *pp = w->next;
    if (w->state == W_QUEUED && h->tail == w)
        h->tail = prev;
    w->next = NULL;
}

void ulf_orphan_waiters(struct ulf_handler *h)
{
    for (int i = 0; i < MAX_THREADS; i++) {
        struct ulf_wait *w = &waits[i];
        if (w->h != h || (w->state != W_QUEUED && w->state != W_TAKEN))
            continue;
        w->state = W_ORPHANED;
        w->next = NULL;
        wakeup_thread(w->t, w);
    }
    h->head = h->tail = h->taken = NULL;
}

/* Under the lock: sends w's message to h and sleeps until it is answered,
 * the handler goes, or the process is being killed (W_IDLE: withdrawn). */
static enum ulf_wait_state send_and_wait(struct ulf_handler *h, struct ulf_wait *w,
                                         struct proc *p)
{
    enqueue(h, w);
    while (w->state == W_QUEUED || w->state == W_TAKEN) {
        if (proc_killed(p)) {
            unlink_wait(w);
            w->state = W_IDLE;
            return W_IDLE;
        }
        sleep_on(w, &ulf_lock);
    }
    enum ulf_wait_state st = w->state;
    w->state = W_IDLE;
    return st;
}

static struct ulf_wait *my_wait(struct thread *t)
{
    struct ulf_wait *w = &waits[t - threads];
    w->t = t;
    return w;
}

enum ulf_verdict ulf_fault(uint64_t addr, enum access access, uint64_t pc,
                           uint64_t entry_stamp, int *sig, const char **why)
{
    struct thread *t = current_thread();
    struct proc *p = t->proc;
    struct ulf_wait *w = my_wait(t);
    spin_lock(&ulf_lock);
    struct ulf_handler *h = client_of(p)->h;
    if (!h || client_of(p)->proc != p) {
        spin_unlock(&ulf_lock);
        *why = "its fault handler is gone";
        return ULF_KILLED;
    }
    w->msg = (struct fl_ulf_msg){ .kind = FL_ULF_FAULT, .pid = p->pid, .tid = t->tid,
                                  .access = (int32_t)access, .addr = addr, .pc = pc };
    w->sent_at = entry_stamp;
    enum ulf_wait_state st = send_and_wait(h, w, p);
    int how = w->how;
    long value = w->value;
    uint64_t answered = w->answered_at;
    spin_unlock(&ulf_lock);
    if (st == W_IDLE)
        return ULF_ABANDONED;
    if (st == W_ORPHANED) {
        *why = "its fault handler exited";
        return ULF_KILLED;
    }
    meter_record(FL_METER_ULF_RESUME, answered, meter_now());
    switch (how) {
    case FL_ULF_RETRY:
        return ULF_RESUMED;
    case FL_ULF_SIGNAL:
        *sig = (int)value;
        return ULF_SIGNALLED;
    }
    *why = "killed by its fault handler";
    return ULF_KILLED;
}

bool ulf_syscall_forwarded(const struct trapframe *tf)
{
    const struct thread *t = container_of(tf, struct thread, tf);
    const struct ulf_client *c = client_of(t->proc);
    return c->proc == t->proc && c->syscalls;
}

/* The emulator said to end the process, or is gone. */
static long syscall_kill(struct trapframe *tf, const char *why)
{
    proc_user_fault(why, tf_pc(tf), 0, SIGKILL);
    return -EINTR;
}

/* A signal the emulator posts to the thread instead of an answer. */
static long syscall_signal(struct thread *t, int sig)
{
    struct proc *p = t->proc;
    spin_lock(&p->lock);
    proc_post_signal(p, sig, current_proc()->pid);   /* from the emulator, as a kill */
    spin_unlock(&p->lock);
    return -EINTR;
}

/* Sends one message about tf's call (kind, with result for SYSRET) and
 * waits: what became of it, with how and value answered. */
static enum ulf_wait_state forward_call(struct trapframe *tf, int kind, long result,
                                        uint64_t sent_at, int *how, long *value)
{
    struct thread *t = container_of(tf, struct thread, tf);
    struct proc *p = t->proc;
    struct ulf_wait *w = my_wait(t);
    const uint64_t *a = tf_args(tf);
    spin_lock(&ulf_lock);
    struct ulf_handler *h = client_of(p)->h;
    if (!h) {
        spin_unlock(&ulf_lock);
        return W_ORPHANED;
    }
    w->msg = (struct fl_ulf_msg){ .kind = kind, .pid = p->pid, .tid = t->tid,
                                  .pc = tf_pc(tf), .nr = tf_syscall_nr(tf),
                                  .args = { a[0], a[1], a[2], a[3], a[4], a[5] },
                                  .result = result };
    w->sent_at = sent_at;
    enum ulf_wait_state st = send_and_wait(h, w, p);
    *how = w->how;
    *value = w->value;
    uint64_t answered = w->answered_at;
    spin_unlock(&ulf_lock);
    if (st == W_ANSWERED)
        meter_record(FL_METER_TRAP_RESUME, answered, meter_now());
    return st;
}

long ulf_syscall(struct trapframe *tf)
{
    struct thread *t = container_of(tf, struct thread, tf);
    int how;
    long value;
    enum ulf_wait_state st = forward_call(tf, FL_ULF_SYSCALL, 0, tf->entry_stamp, &how, &value);
    if (st == W_IDLE)
        return -EINTR;               /* being killed: the way out ends it */
    if (st == W_ORPHANED)
        return syscall_kill(tf, "its emulator exited");
    switch (how) {
    case FL_ULF_RETURN:
        return value;
    case FL_ULF_SIGNAL:
        return syscall_signal(t, (int)value);
    case FL_ULF_KILL:
        return syscall_kill(tf, "killed by its emulator");
    }
    /* FL_ULF_PASS(_REPORT): performed here, with the registers as the
     * emulator left them. exit does not come back; exec comes back with
     * a new image. */
    bool report = how == FL_ULF_PASS_REPORT;
    long rc = syscall_call(tf);
    if (!report)
        return rc;
    st = forward_call(tf, FL_ULF_SYSRET, rc, meter_now(), &how, &value);
    if (st == W_IDLE)
        return rc;
    if (st == W_ORPHANED)
        return syscall_kill(tf, "its emulator exited");
    switch (how) {
    case FL_ULF_RETURN:
        return value;
    case FL_ULF_SIGNAL:
        syscall_signal(t, (int)value);
        return rc;
    case FL_ULF_KILL:
        return syscall_kill(tf, "killed by its emulator");
    }
    return rc;
}

long sys_ulf_recv(uint64_t umsg)
{
    struct thread *t = current_thread();
    spin_lock(&ulf_lock);
    struct ulf_handler *h = ulf_handler_of(t->proc);
    if (!h) {
        spin_unlock(&ulf_lock);
        return -ESRCH;              /* manages nothing */
    }
    struct ulf_wait *w;
    while (!(w = h->head)) {
        if (!h->nclients) {
            spin_unlock(&ulf_lock);
            return -ESRCH;          /* nothing left to wait for */
        }
        if (thread_interrupted()) {
            spin_unlock(&ulf_lock);
            return -EINTR;
        }
        h->nreceivers++;
        h->receiver = t;
        sleep_on_intr(h, &ulf_lock);
        h->nreceivers--;
        if (h->receiver == t)
            h->receiver = NULL;
    }
    h->head = w->next;
    if (!h->head)
        h->tail = NULL;
    w->state = W_TAKEN;
    w->next = h->taken;
    h->taken = w;
    struct fl_ulf_msg msg = w->msg;
    uint64_t sent = w->sent_at;
    spin_unlock(&ulf_lock);
    if (copy_to_user(umsg, &msg, sizeof msg)) {
        /* Not delivered: back to the head of the queue, if the thread
         * still waits. */
        spin_lock(&ulf_lock);
        if (w->state == W_TAKEN && w->h == h) {
            unlink_wait(w);
            w->state = W_QUEUED;
            w->next = h->head;
            h->head = w;
            if (!h->tail)
                h->tail = w;
        }
        spin_unlock(&ulf_lock);
        return -EFAULT;
    }
    if (msg.kind == FL_ULF_FAULT)
        meter_record(FL_METER_ULF_TRANSFER, sent, meter_now());
    else if (msg.kind == FL_ULF_SYSCALL)
        meter_record(FL_METER_TRAP_FORWARD, sent, meter_now());
    return 0;
}

/* Lock held: the message of thread tid that the caller's handler took. */
static struct ulf_wait *taken_by_tid(uint64_t tid)
{
    struct ulf_handler *h = ulf_handler_of(current_proc());
    if (!h)
        return NULL;
    for (struct ulf_wait *w = h->taken; w; w = w->next)
        if ((uint64_t)w->msg.tid == tid)
            return w;
    return NULL;
}

static bool answer_fits(int kind, uint64_t how, uint64_t value)
{
    if (how == FL_ULF_SIGNAL)
        return value > 0 && value < NSIG;
    if (how == FL_ULF_KILL)
        return true;
    switch (kind) {
    case FL_ULF_FAULT:
        return how == FL_ULF_RETRY;
    case FL_ULF_SYSCALL:
        return how == FL_ULF_RETURN || how == FL_ULF_PASS || how == FL_ULF_PASS_REPORT;
    case FL_ULF_SYSRET:
        return how == FL_ULF_RETRY || how == FL_ULF_RETURN;
    }
    return false;
}

long sys_ulf_resume(uint64_t tid, uint64_t how, uint64_t value)
{
    uint64_t entry = current_thread()->tf.entry_stamp;
    spin_lock(&ulf_lock);
    struct ulf_wait *w = taken_by_tid(tid);
    if (!w) {
        spin_unlock(&ulf_lock);
        return -ESRCH;
    }
    if (!answer_fits(w->msg.kind, how, value)) {
        spin_unlock(&ulf_lock);
        return -EINVAL;
    }
    unlink_wait(w);
    w->how = (int)how;
    w->value = (long)value;
    w->answered_at = entry;
    w->state = W_ANSWERED;
    wakeup_thread_next(w->t, w);
    spin_unlock(&ulf_lock);
    return 0;
}

/* L4's ReplyWait: the answer and the next receive in one trap, so the
 * handler is asleep again before the thread it answered runs. */
long sys_ulf_reply_recv(uint64_t tid, uint64_t how, uint64_t value, uint64_t umsg)
{
    long rc = sys_ulf_resume(tid, how, value);
    return rc ? rc : sys_ulf_recv(umsg);
}

long sys_ulf_regs(uint64_t tid, uint64_t uregs, uint64_t write)
{
    struct fl_ulf_regs r;
    if (write > 1)
        return -EINVAL;
    if (write && copy_from_user(&r, uregs, sizeof r))
        return -EFAULT;
    spin_lock(&ulf_lock);
    /* The thread sleeps while its message is taken and unanswered, so
     * its saved registers hold still for as long as the lock is held. */
    struct ulf_wait *w = taken_by_tid(tid);
    if (!w) {
        spin_unlock(&ulf_lock);
        return -ESRCH;
    }
    /* A thread whose user copy faulted inside a system call come in the
     * light way has part of its registers on its kernel stack, not in
     * its frame: none can be shown or replaced, so none is. */
    if (!tf_regs_whole(&w->t->tf)) {
        spin_unlock(&ulf_lock);
        return -EBUSY;
    }
    if (write)
        tf_set_regs(&w->t->tf, r.regs);
    else
        tf_get_regs(&w->t->tf, r.regs);
    spin_unlock(&ulf_lock);
    if (!write && copy_to_user(uregs, &r, sizeof r))
        return -EFAULT;
    return 0;
}
