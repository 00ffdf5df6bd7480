/*
 * Processes and threads.
 *
 * A process owns an address space, open files and children; it has one or
 * more threads, which are what the scheduler runs. Both live in fixed
 * tables (MAX_PROCS, MAX_THREADS), so running out is a clean -EAGAIN.
 *
 * Ownership: the process table owns struct proc; a proc owns its aspace and
 * its file slots; the thread table owns struct thread and its kernel stack.
 * Locks (outermost first): wait_lock, proc.lock, thread.lock. See
 * docs/architecture.md for the full order.
 */
#ifndef FAULTLINE_PROC_H
#define FAULTLINE_PROC_H

#include "types.h"
#include "config.h"
#include "spinlock.h"
#include "arch_api.h"
#include <faultline/abi.h>

struct aspace;
struct file;
struct sleeplock;

/* Where a pending signal came from, for its siginfo. */
struct sig_origin {
    int32_t  code;                /* si_code */
    int32_t  pid;                 /* the sender, 0 for the kernel */
    uint64_t addr;                /* the faulting address of a fault signal, else 0 */
};

enum thread_state {
    T_UNUSED = 0,
    T_EMBRYO,     /* being set up */
    T_RUNNABLE,
    T_RUNNING,
    T_SLEEPING,
    T_ZOMBIE,     /* exited, waiting to be joined */
    T_DEAD,       /* exited, slot freed by the scheduler once switched away */
};

struct thread {
    struct trapframe tf;          /* user registers (first: trap.S finds it via sscratch) */
    struct spinlock lock;         /* state, chan, exit_value */
    enum thread_state state;
    void    *chan;                /* what a sleeping thread waits for */
    int      tid;
    struct proc *proc;            /* NULL for a kernel thread */
    struct context context;       /* kernel registers while switched out */
    uint64_t kstack_top;
    int      affinity;            /* cpu id it is pinned to, or -1 */
    int      cpu;                 /* cpu it last ran on, -1 never */
    long     exit_value;          /* for thread_join */
    bool     joined;              /* someone is already joining it */
    bool     exited;              /* under proc.lock: has called thread_exit */
    void   (*kentry)(void *);     /* kernel threads: body */
    void    *karg;
    /* CPU time in arch time units (arch_read_time) */
    uint64_t utime, stime, stamp;
    /* Signals (signal.c). Pending bits (atomic) are written under
     * proc.lock, which every poster holds; the blocked mask is written
     * only by the thread itself (set_own_mask). Bit 0 of sig_pending is
     * no signal but work for the way out (SIG_RESTORE_MASK, signal.h). */
    uint64_t sig_pending;         /* directed at this thread (tkill, faults) */
    uint64_t sig_blocked;         /* sigprocmask: never includes SIGKILL */
    /* Cycles spent switched out (asleep, or yielded) or in interrupts
     * taken in the kernel, so a meter can give the instructions a path
     * itself ran: elapsed less this. */
    uint64_t offcpu_cycles;
    /* Signal probe points (meters), cycles; 0 = not reached. */
    uint64_t sig_posted_at, sig_ipi_at, sig_interrupted_at;
    char     name[FL_NAME_MAX];
    /* Per hart, the ticket of its TLB flush after this slot got a new
     * stack, 0 once served (thread.c, kstack_shootdown). Last, so that the
     * offsets the trap path uses stay as they are. */
    uint64_t kstack_flush[MAX_HARTS];
    /* More signal state (signal.c, sigwait.c), after what the trap path
     * reaches. sig_from[] says where each pending bit of sig_pending came
     * from (sender, fault address), written with it under proc.lock;
     * sig_saved_blocked is the mask
     * sigsuspend replaced, restored at the delivery it waited for;
     * sig_waiting is the set a sigtimedwait sleeps for (under thread.lock:
     * a poster wakes the thread for those although it blocks them); the
     * alternate stack is the thread's own (sigaltstack). */
    struct sig_origin sig_from[NSIG];
    uint64_t sig_saved_blocked;
    uint64_t sig_waiting;
    uint64_t sig_altstack_sp, sig_altstack_size;   /* size 0: none */
    uint8_t  pcm_reason;          /* why it is about to leave the hart (pcmeter.h) */
#ifdef FL_DEBUG
    /* Sleep locks this thread holds, in the order taken (kernel/lock/lockrank.c);
     * after everything the trap path reaches. */
    const struct sleeplock *lockrank_held[LOCKRANK_MAX_HELD];
    int lockrank_nheld;
#endif
};

enum proc_state { P_UNUSED = 0, P_ALIVE, P_ZOMBIE };

#define KILLED_FOR_EXEC (-1)      /* proc.killed: not a signal (see there) */
#define MM_HOLD_NONE    ((uintptr_t)0)   /* proc.mm_hold (see there) */
#define MM_HOLD_ALL     ((uintptr_t)1)

struct proc {
    struct spinlock lock;         /* state, killed, nthreads, xstatus, times */
    enum proc_state state;
    int      pid;
    struct proc *parent;          /* under wait_lock */
    struct aspace *as;
    struct file *files[MAX_OPEN_FILES];  /* under files_lock (file.c) */
    int      nthreads;            /* live (not ZOMBIE/DEAD) threads */
    /* Nonzero: every thread must leave user mode (user_return_prepare
     * tests it) and see why: > 0 the signal ending the process;
     * KILLED_FOR_EXEC while a thread in exec makes the others leave.
     * Set under lock; an ending signal replaces KILLED_FOR_EXEC, never the
     * other way round. */
    int      killed;
    bool     exiting;             /* one thread is tearing the process down */
    int      xstatus;             /* wait status once ZOMBIE */
    uint64_t dead_utime, dead_stime;     /* from threads already gone */
    uint64_t child_utime, child_stime;   /* from reaped children */
    struct fl_sigaction sig_actions[NSIG];  /* under lock */
    uint64_t sig_pending;         /* under lock: directed at the process (kill) */
    /* The memory manager holds the process off the harts (mm=swap: its
     * image is going or gone out). MM_HOLD_NONE: its threads run;
     * MM_HOLD_ALL: none does; otherwise the one thread (a struct thread *)
     * that may still run, writing its own process out. Set by the
     * manager, read by the scheduler without a lock; whatever else a
     * manager keeps of a process is its own (mm_ops.proc_init). */
    uintptr_t mm_hold;
    uint64_t last_ran;            /* arch time one of its threads last got a hart */
    char     name[FL_NAME_MAX];
    /* "fdtable": files[], which the threads share. Last, so that the
     * fields the trap path and the signal paths reach (killed,
     * sig_actions, sig_pending) keep their offsets and instructions. */
    struct spinlock files_lock;
    /* Process group and session (pgrp.c), under wait_lock; at the end so
     * the offsets arch.h hard-codes do not move. */
    int      pgid;
    int      sid;
    /* Where each bit of sig_pending came from (signal.c), under lock. */
    struct sig_origin sig_from[NSIG];
    /* A system process (proc_start_system): one kernel thread, no
     * address space, no files; signals and kill do not reach it. */
    bool     system;
};

extern struct thread threads[MAX_THREADS];
extern struct proc procs[MAX_PROCS];
extern struct spinlock wait_lock;

static inline struct thread *current_thread(void);

/* --- scheduler (sched.c) --- */
_Noreturn void scheduler(void);
void yield(void);
void sched(void);                        /* caller holds only current->lock */
void sleep_on(void *chan, struct spinlock *lk);
void sleep_on_intr(void *chan, struct spinlock *lk);   /* returns at once if thread_interrupted() */
void wakeup(void *chan);
void wakeup_thread(struct thread *t, void *chan);   /* t only, if it sleeps on chan */
/* The same, and this hart runs t next when the caller gives it up (a
 * handoff between a suspended thread and its handler, kernel/ulf),
 * instead of scanning the thread table for it. */
void wakeup_thread_next(struct thread *t, void *chan);
void make_runnable(struct thread *t);    /* caller holds t->lock */
void kick_cpu_for(struct thread *t);     /* an idle hart that may run t: IPI it */
bool sched_work_waiting(void);           /* some thread is RUNNABLE, waiting for a hart */
/* Called by a hart about to idle, interrupts off, no lock held: true if
 * it made a thread runnable (work kept for idle time). NULL: none. */
extern bool (*sched_idle_work)(void);
void thread_first_entry(void);

/* --- threads (thread.c) --- */
void threads_init(void);
struct thread *thread_alloc(struct proc *p, const char *name);   /* returned locked? no: UNUSED->reserved */
void thread_free(struct thread *t);
void thread_sync_ids(struct thread *t);
void kstack_await_flushes(struct thread *t);   /* a new thread, first thing */
void kstack_flush_local(struct thread *t);     /* t's stack pages, this hart's TLB */
struct thread *kthread_create(const char *name, void (*fn)(void *), void *arg, int affinity);
_Noreturn void thread_exit(long value);
long thread_join(int tid, long *value);
long thread_create_user(uint64_t pc, uint64_t sp, uint64_t a0, uint64_t a1);
struct thread *thread_by_tid(int tid);

/* --- processes (proc.c) --- */
void procs_init(void);
struct proc *proc_alloc(void);
void proc_start_init(const char *path);
/* A process of the kernel's own, so that ps shows it: one kernel thread
 * running fn(arg) for ever, on any hart. */
struct thread *proc_start_system(const char *name, void (*fn)(void *), void *arg);
long proc_fork(void);
_Noreturn void proc_exit(int status);
long proc_wait(int pid, uint64_t status_uva, int flags);
/* pid < -1: the group -pid; 0: the caller's group. sig 0 sends nothing:
 * only whether the target exists and may be signalled. */
long proc_kill(int pid, int sig);
/* Caller holds p->lock; sig valid. from: the sender's pid, 0 for the kernel. */
void proc_post_signal(struct proc *p, int sig, int from);
bool proc_is_init(const struct proc *p);
/* Whether p is being killed (or left for exec). Inline: the sleep and
 * signal-wait paths ask it several times a wait. */
static inline bool proc_killed(const struct proc *p)
{
    return __atomic_load_n(&p->killed, __ATOMIC_RELAXED) != 0;
}
void proc_stop_other_threads(struct proc *p);
int  proc_stop_others_for_exec(struct proc *p);   /* 0, or -EINTR: being killed */
/* Records sig as what ends p, unless something already does. p->lock held. */
void proc_set_killed(struct proc *p, int sig);
void proc_user_fault(const char *cause, uint64_t pc, uint64_t addr, int sig);
int  proc_count(void);

void cpu_send_ipi(struct cpu *c, uint32_t what);
/* TLB shootdown of hart c: asks it to flush its whole TLB and returns a
 * ticket; the flush covers every page-table change made before the ask
 * once tlb_flush_done(c, ticket) is true. */
uint64_t tlb_flush_ask(struct cpu *c);
bool tlb_flush_done(const struct cpu *c, uint64_t ticket);
/* Sleeps until tlb_flush_done(c, ticket). A thread holding no spinlock. */
void tlb_flush_wait(struct cpu *c, uint64_t ticket);
void ipi_interrupt(void);

#include "cpu.h"
/*
 * The running thread, found from the stack pointer: every thread's kernel
 * stack lies in its own slot of the kernel-stack area, so this stays right
 * even if the thread is preempted and moves to another hart halfway through
 * (reading this_cpu()->current could then see the old hart's thread). On a
 * boot or scheduler stack it is NULL.
 */
static inline struct thread *current_thread(void)
{
    uint64_t off = arch_stack_pointer() - KSTACK_AREA_BASE;
    if (off >= ((uint64_t)MAX_THREADS << KSTACK_SLOT_SHIFT))
        return NULL;
    return &threads[off >> KSTACK_SLOT_SHIFT];
}
/* current_thread() - threads, without dividing by a thread record's size
 * (for per-thread tables); called on a thread's own stack only. */
static inline uint64_t current_thread_index(void)
{
    return (arch_stack_pointer() - KSTACK_AREA_BASE) >> KSTACK_SLOT_SHIFT;
}
static inline struct proc *current_proc(void)
{
    struct thread *t = current_thread();
    return t ? t->proc : NULL;
}

/* Time accounting at user/kernel crossings: exact, at every crossing
 * (the page-control experiments report user and system time). Inline: it
 * runs twice on every trap. The return-to-user checks are in signal.h. */
static inline void account_enter_kernel(struct thread *t)
{
    uint64_t now = arch_read_time();
    t->utime += now - t->stamp;
    t->stamp = now;
}
static inline void account_leave_kernel(struct thread *t)
{
    uint64_t now = arch_read_time();
    t->stime += now - t->stamp;
    t->stamp = now;
}

#endif
