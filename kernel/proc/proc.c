/*
 * Processes: the table, fork, exit, wait, kill, and the first process.
 */
#include "ulf.h"
#include "proc.h"
#include "aspace.h"
#include "file.h"
#include "exec.h"
#include "mmu.h"
#include "mm.h"
#include "printk.h"
#include "kstring.h"
#include "usercopy.h"
#include "signal.h"
#include "pgrp.h"
#include <faultline/errno.h>

struct proc procs[MAX_PROCS];
struct spinlock wait_lock = SPINLOCK_INIT("wait", LOCK_RANK_WAIT);
static int next_pid = 1;
static struct proc *init_proc;

/* Where the process with a pid was put, by the pid's low bits: kill()
 * looks there first instead of scanning the table. Only a hint, never
 * cleared: a slot reused since holds another pid, which kill checks under
 * the slot's lock (pids are never reused, so a matching pid is the
 * process). A miss falls back to the scan. */
#define PID_HINTS  MAX_PROCS
_Static_assert((PID_HINTS & (PID_HINTS - 1)) == 0, "pid hints are indexed by the pid's low bits");
static struct proc *pid_hint[PID_HINTS];

void thread_reap_all(struct proc *p, struct thread *except);

void procs_init(void)
{
    for (int i = 0; i < MAX_PROCS; i++) {
        spin_init(&procs[i].lock, "proc", LOCK_RANK_PROC);
        spin_init(&procs[i].files_lock, "fdtable", LOCK_RANK_FDTABLE);
    }
}

/* A fresh ALIVE process with no threads, address space or files. */
struct proc *proc_alloc(void)
{
    for (int i = 0; i < MAX_PROCS; i++) {
        struct proc *p = &procs[i];
        spin_lock(&p->lock);
        if (p->state != P_UNUSED) {
            spin_unlock(&p->lock);
            continue;
        }
        p->state = P_ALIVE;
        p->pid = __atomic_fetch_add(&next_pid, 1, __ATOMIC_RELAXED);
        __atomic_store_n(&pid_hint[p->pid & (PID_HINTS - 1)], p, __ATOMIC_RELAXED);
        p->parent = NULL;
        p->as = NULL;
        memset(p->files, 0, sizeof p->files);
        p->nthreads = 0;
        p->killed = 0;
        p->exiting = false;
        p->xstatus = 0;
        p->dead_utime = p->dead_stime = 0;
        p->child_utime = p->child_stime = 0;
        memset(p->sig_actions, 0, sizeof p->sig_actions);
        p->sig_pending = 0;
        p->mm_hold = MM_HOLD_NONE;
        mm_proc_init(p);
        p->last_ran = arch_read_time();
        p->name[0] = '\0';
        p->pgid = p->sid = 0;      /* set by fork (pgrp_fork) or for init */
        p->system = false;
        spin_unlock(&p->lock);
        return p;
    }
    return NULL;
}

static void proc_release(struct proc *p)
{
    spin_lock(&p->lock);
    p->state = P_UNUSED;
    p->pid = 0;
    spin_unlock(&p->lock);
}

int proc_count(void)
{
    int n = 0;
    for (int i = 0; i < MAX_PROCS; i++)
        n += procs[i].state != P_UNUSED;
    return n;
}

static void init_entry(void *arg)
{
    const char *path = arg;
    char *argv[] = { (char *)path, NULL };
    long rc = exec_kernel_argv(path, argv);
    if (rc < 0)
        panic("cannot start %s: error %ld", path, -rc);
}

void proc_start_init(const char *path)
{
    struct proc *p = proc_alloc();
    if (!p)
        panic("no process slot for init");
    p->as = aspace_create();
    if (!p->as)
        panic("no address space for init");
    if (files_open_console(p))
        panic("cannot open the console for init");
    struct thread *t = thread_alloc(p, "init");
    if (!t)
        panic("no thread for init");
    kstrlcpy(p->name, "init", sizeof p->name);
    pgrp_init_first(p);
    p->nthreads = 1;
    t->kentry = init_entry;
    t->karg = (void *)path;
    init_proc = p;
    spin_lock(&t->lock);
    make_runnable(t);
    spin_unlock(&t->lock);
}

struct thread *proc_start_system(const char *name, void (*fn)(void *), void *arg)
{
    struct proc *p = proc_alloc();
    if (!p)
        return NULL;
    struct thread *t = thread_alloc(p, name);
    if (!t)
        panic("no thread for system process %s", name);
    kstrlcpy(p->name, name, sizeof p->name);
    p->system = true;
    p->nthreads = 1;
    t->kentry = fn;
    t->karg = arg;
    spin_lock(&t->lock);
    make_runnable(t);
    spin_unlock(&t->lock);
    return t;
}

long proc_fork(void)
{
    struct thread *pt = current_thread();
    struct proc *parent = pt->proc;
    struct proc *child = proc_alloc();
    if (!child)
        return -EAGAIN;
    int rc = aspace_clone(parent->as, &child->as);
    if (rc) {
        proc_release(child);
        return rc;
    }
    struct thread *t = thread_alloc(child, parent->name);
    if (!t) {
        aspace_destroy(child->as);
        proc_release(child);
        return -EAGAIN;
    }
    files_fork(parent, child);
    signal_fork(pt, child, t);
    kstrlcpy(child->name, parent->name, sizeof child->name);
    uint64_t ksp = t->tf.kernel_sp;
    t->tf = pt->tf;
    t->tf.kernel_sp = ksp;
    ulf_fork(parent, child);       /* before the ids: it may turn light calls off */
    thread_sync_ids(t);
    tf_set_return(&t->tf, 0);
    child->nthreads = 1;

    spin_lock(&wait_lock);
    child->parent = parent;
    pgrp_fork(parent, child);
    spin_unlock(&wait_lock);

    int pid = child->pid;
    spin_lock(&t->lock);
    make_runnable(t);
    spin_unlock(&t->lock);
    return pid;
}

/* Wakes every thread of p so that it notices p->killed, and interrupts the
 * ones running on other harts. Caller holds p->lock. */
static void nudge_threads(struct proc *p, struct thread *except)
{
    for (int i = 0; i < MAX_THREADS; i++) {
        struct thread *t = &threads[i];
        if (t == except || t->proc != p)
            continue;
        spin_lock(&t->lock);
        if (t->proc == p) {
            if (t->state == T_SLEEPING)
                make_runnable(t);
            else if (t->state == T_RUNNING && t->cpu >= 0 && &cpus[t->cpu] != this_cpu())
                cpu_send_ipi(&cpus[t->cpu], IPI_RESCHEDULE);
        }
        spin_unlock(&t->lock);
    }
}

void proc_set_killed(struct proc *p, int sig)
{
    if (p->killed <= 0)
        p->killed = sig;
}

/* Makes every other thread of p exit and waits until they have. Caller has
 * set p->exiting and an ending signal in p->killed. */
void proc_stop_other_threads(struct proc *p)
{
    struct thread *self = current_thread();
    spin_lock(&p->lock);
    while (p->nthreads > 1) {
        nudge_threads(p, self);
        sleep_on(&p->nthreads, &p->lock);
    }
    spin_unlock(&p->lock);
    thread_reap_all(p, self);
}

/*
 * exec: makes every other thread of p leave (as exit does, but the process
 * goes on) and waits until they have. KILLED_FOR_EXEC in p->killed sends
 * them out of user mode and out of interruptible sleeps; a thread in a
 * wait that cannot be interrupted (the disk) leaves when it is done. A
 * kill, an exit or a fatal signal meanwhile wins: it replaces the mark,
 * and exec gives up with -EINTR, so its caller leaves on its way out
 * instead of both waiting for each other. The same if p is already being
 * killed, or another thread is already in exec or exit.
 */
int proc_stop_others_for_exec(struct proc *p)
{
    struct thread *self = current_thread();
    spin_lock(&p->lock);
    if (p->killed || p->exiting) {
        spin_unlock(&p->lock);
        return -EINTR;
    }
    if (p->nthreads > 1) {
        p->killed = KILLED_FOR_EXEC;
        while (p->nthreads > 1 && p->killed == KILLED_FOR_EXEC) {
            nudge_threads(p, self);
            sleep_on(&p->nthreads, &p->lock);
        }
        if (p->killed != KILLED_FOR_EXEC) {
            spin_unlock(&p->lock);
            return -EINTR;
        }
        p->killed = 0;
    }
    spin_unlock(&p->lock);
    thread_reap_all(p, self);
    return 0;
}

static void reparent_children(struct proc *p)
{
    for (int i = 0; i < MAX_PROCS; i++) {
        struct proc *c = &procs[i];
        if (c->parent == p) {
            c->parent = init_proc;
            wakeup(init_proc);
        }
    }
}

_Noreturn void proc_exit(int status)
{
    struct thread *t = current_thread();
    struct proc *p = t->proc;
    if (p == init_proc)
        panic("init exited (status %d)", status);

    spin_lock(&p->lock);
    if (p->exiting) {
        /* Another thread is already tearing the process down. */
        spin_unlock(&p->lock);
        thread_exit(0);
    }
    p->exiting = true;
    proc_set_killed(p, SIGKILL);   /* tells the other threads to leave */
    p->xstatus = status;
    spin_unlock(&p->lock);

    proc_stop_other_threads(p);
    /* Before the space goes: the handlers it used or was (kernel/ulf). */
    ulf_exit(p);
    files_close_all(p);

    /* Detach the address space, then free it: once p->as is NULL no hart
     * will load it again (aspace_destroy drops it from those that have). */
    struct aspace *as = p->as;
    spin_lock(&p->lock);
    p->as = NULL;
    spin_unlock(&p->lock);
    aspace_destroy(as);

    /* From here on this thread belongs to no process: once p is a zombie
     * its slot may be reaped and reused while we are still on our way off
     * the hart, and the new owner must not mistake us for one of its own. */
    spin_lock(&t->lock);
    t->proc = NULL;
    spin_unlock(&t->lock);

    spin_lock(&wait_lock);
    reparent_children(p);
    spin_lock(&p->lock);
    p->dead_utime += t->utime;
    p->dead_stime += t->stime;
    p->nthreads = 0;
    p->state = P_ZOMBIE;
    spin_unlock(&p->lock);
    wakeup(p->parent);
    spin_unlock(&wait_lock);

    spin_lock(&t->lock);
    t->state = T_DEAD;
    sched();
    panic("proc_exit: dead thread ran again");
}

long proc_wait(int pid, uint64_t status_uva, int flags)
{
    struct proc *self = current_proc();
    if (status_uva) {
        /* Check the pointer before reaping, so a bad one loses no status. */
        int zero = 0;
        if (copy_to_user(status_uva, &zero, sizeof zero))
            return -EFAULT;
    }
    spin_lock(&wait_lock);
    for (;;) {
        bool have_kids = false;
        for (int i = 0; i < MAX_PROCS; i++) {
            struct proc *c = &procs[i];
            if (c->parent != self || (pid > 0 && c->pid != pid))
                continue;
            have_kids = true;
            spin_lock(&c->lock);
            if (c->state == P_ZOMBIE) {
                int cpid = c->pid, st = c->xstatus;
                self->child_utime += c->dead_utime + c->child_utime;
                self->child_stime += c->dead_stime + c->child_stime;
                c->parent = NULL;
                c->state = P_UNUSED;
                c->pid = 0;
                spin_unlock(&c->lock);
                spin_unlock(&wait_lock);
                if (status_uva && copy_to_user(status_uva, &st, sizeof st))
                    return -EFAULT;
                return cpid;
            }
            spin_unlock(&c->lock);
        }
        if (!have_kids) {
            spin_unlock(&wait_lock);
            return -ECHILD;
        }
        if (flags & WNOHANG) {
            spin_unlock(&wait_lock);
            return 0;
        }
        if (thread_interrupted()) {
            spin_unlock(&wait_lock);
            return -EINTR;
        }
        sleep_on_intr(self, &wait_lock);
    }
}

bool proc_is_init(const struct proc *p) { return p == init_proc; }

void proc_post_signal(struct proc *p, int sig, int from)
{
    if (p->system)
        return;               /* a kernel thread never returns to user mode to take it */
    if (sig != SIGKILL) {
        signal_post_process(p, sig, from);   /* caught, ignored or default */
    } else {
        proc_set_killed(p, sig);
        nudge_threads(p, current_thread());
    }
}

/* kill() of one live process, p->lock held: init and the system
 * processes (page control's daemons) refuse every signal (EPERM), and
 * signal 0 only asks. */
static long kill_one(struct proc *p, int sig, int from)
{
    if (p == init_proc || p->system)
        return -EPERM;
    if (sig)
        proc_post_signal(p, sig, from);
    return 0;
}

static long kill_by_pid(int pid, int sig, int from);

long proc_kill(int pid, int sig)
{
    if (sig < 0 || sig >= NSIG)
        return -EINVAL;
    struct proc *self = current_proc();
    /* POSIX: 0 is the caller's group, -pgid a group. -1 ("every
     * process") is not offered. */
    if (pid == -1)
        return -EINVAL;
    if (pid == 0)
        return pgrp_kill(__atomic_load_n(&self->pgid, __ATOMIC_RELAXED), sig, self->pid);
    if (pid < 0)
        return pid == INT32_MIN ? -ESRCH : pgrp_kill(-pid, sig, self->pid);   /* -INT32_MIN overflows */
    /* A signal to oneself needs no search of the table (it is alive: it
     * is making this call). */
    if (pid == self->pid) {
        spin_lock(&self->lock);
        long rc = kill_one(self, sig, self->pid);
        spin_unlock(&self->lock);
        return rc;
    }
    return kill_by_pid(pid, sig, self->pid);
}

/* kill() of another process, found in the table. Apart from proc_kill so
 * that a kill of oneself does not save the registers the search uses. */
static __attribute__((noinline)) long kill_by_pid(int pid, int sig, int from)
{
    long rc = -ESRCH;
    struct proc *hint = __atomic_load_n(&pid_hint[pid & (PID_HINTS - 1)], __ATOMIC_RELAXED);
    if (hint && __atomic_load_n(&hint->pid, __ATOMIC_RELAXED) == pid) {
        spin_lock(&hint->lock);
        if (hint->pid == pid) {
            /* The one process with that pid, alive or not. */
            if (hint->state == P_ALIVE)
                rc = kill_one(hint, sig, from);
            spin_unlock(&hint->lock);
            return rc;
        }
        spin_unlock(&hint->lock);
    }
    for (int i = 0; i < MAX_PROCS; i++) {
        struct proc *p = &procs[i];
        /* Peek first, then make sure under the lock: a lock per slot
         * made a kill cost what the whole table costs to lock. */
        if (__atomic_load_n(&p->pid, __ATOMIC_RELAXED) != pid)
            continue;
        spin_lock(&p->lock);
        if (p->state == P_ALIVE && p->pid == pid) {
            rc = kill_one(p, sig, from);
            spin_unlock(&p->lock);
            return rc;
        }
        spin_unlock(&p->lock);
    }
    return rc;
}

void proc_user_fault(const char *cause, uint64_t pc, uint64_t addr, int sig)
{
    struct proc *p = current_proc();
    kprintf("faultline: killed pid=%d name=%s cause=%s sepc=0x%lx stval=0x%lx\n",
            p->pid, p->name, cause, pc, addr);
    spin_lock(&p->lock);
    proc_set_killed(p, sig);
    spin_unlock(&p->lock);
}
