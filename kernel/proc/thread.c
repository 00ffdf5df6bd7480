/*
 * The thread table and kernel stacks, thread creation, exit and join.
 *
 * Kernel stacks live in their own area of kernel address space, one slot
 * per thread-table entry with an unmapped guard page below each, so an
 * overflow faults instead of silently corrupting a neighbour. A stack's
 * frames are allocated when its thread is created and freed when the slot
 * is freed, so a slot's mapping changes from one thread to the next.
 *
 * Harts other than the thread's own do touch its stack: the boot hart's
 * disk interrupt completes a request that lives in the waiter's frame
 * (swap_io, the swapper's batches), a waker reads what a sleeper passed
 * by address. A hart that did so keeps the translation in its TLB, and
 * after the slot is remapped it would read and write the old, freed frame
 * (a completion lost in memory nobody reads, and someone else's page
 * scribbled on). So when a slot gets new frames, every hart flushes its
 * TLB before the new thread can hand out addresses on its stack: a
 * shootdown at creation, as a vmalloc'ed range is purged from every CPU
 * before its addresses are used again (kstack_shootdown). Nothing is
 * added to the trap path; the scheduler's check of a new thread's flush
 * replaces the per-slot generation it checked before, and creating a
 * thread costs an IPI per other hart. Keeping each slot's frames for good
 * would need no flush at all, but would hold MAX_THREADS stacks (2 MiB)
 * after a thread bomb on a machine that may have 8 MiB, and memory would
 * not come back.
 */
#include "ulf.h"
#include "proc.h"
#include "frame.h"
#include "mmu.h"
#include "printk.h"
#include "kstring.h"
#include "aspace.h"
#include "board.h"
#include "signal.h"
#include <faultline/errno.h>

struct thread threads[MAX_THREADS];
static int next_tid = 1;
static struct spinlock kstack_lock = SPINLOCK_INIT("kstack", LOCK_RANK_KSTACK);
/* The slot of the last thread freed keeps its stack mapped (kstack_lock):
 * the next thread takes that slot (thread_alloc), and its stack then
 * needs no frames and no mappings, only clearing. Only one, so memory held this way stays
 * KSTACK_PAGES frames whatever ran before (the free-frame counts that
 * leak checks compare before and after see the same); the one parked
 * before goes when another is freed. -1: none. */
static int kstack_parked = -1;

#define KSTACK_SLOT_SIZE (1UL << KSTACK_SLOT_SHIFT)
_Static_assert(KSTACK_SLOT_SIZE > KSTACK_PAGES * PAGE_SIZE, "no room for a guard page");

static uint64_t kstack_base(int slot)
{
    /* The stack sits at the top of its slot; the rest below is guard. */
    return KSTACK_AREA_BASE + (uint64_t)(slot + 1) * KSTACK_SLOT_SIZE - KSTACK_PAGES * PAGE_SIZE;
}

void threads_init(void)
{
    _Static_assert(MAX_THREADS * KSTACK_SLOT_SIZE <= KSTACK_AREA_SIZE, "kernel stack area too small");
    for (int i = 0; i < MAX_THREADS; i++) {
        spin_init(&threads[i].lock, "thread", LOCK_RANK_THREAD);
        threads[i].state = T_UNUSED;
        /* Every table page the stacks will need, now: made on first use,
         * one would appear the first time a slot past a table's reach is
         * taken and stay for good, which a leak check (usertests under
         * mm=swap, whose swapper holds one slot more) counts as a frame
         * lost. */
        if (mmu_prepare(kernel_pagetable, kstack_base(i), 0))
            panic("threads: no memory for the kernel-stack page tables");
    }
}

static void kstack_unmap(int slot)
{
    for (int p = 0; p < KSTACK_PAGES; p++) {
        paddr_t pa = mmu_unmap_page(kernel_pagetable, kstack_base(slot) + (uint64_t)p * PAGE_SIZE);
        if (pa)
            frame_free(pa);
    }
}

/* Maps fresh frames for slot's stack; returns its top or 0. The frames
 * are zeroed: besides leaving no earlier owner's bytes on the stack, a
 * frame that last held a program's text keeps QEMU's (TCG) translations of
 * it until every byte they came from is written, and a stack is written
 * only near its top, so every store to it took QEMU's self-modifying-code
 * path for the thread's whole life (a 25-40x slower system-call loop). */
static uint64_t kstack_map(int slot)
{
    uint64_t base = kstack_base(slot);
    int rc = 0;
    spin_lock(&kstack_lock);
    if (kstack_parked == slot) {
        kstack_parked = -1;
        spin_unlock(&kstack_lock);
        /* Its last thread's bytes go, as a fresh frame's would. */
        for (int p = 0; p < KSTACK_PAGES; p++)
            zero_page((void *)(base + (uint64_t)p * PAGE_SIZE));
        return base + KSTACK_PAGES * PAGE_SIZE;
    }
    for (int p = 0; p < KSTACK_PAGES && rc == 0; p++) {
        paddr_t f = frame_alloc_zeroed(FRAME_KERNEL);
        rc = f ? mmu_map_page(kernel_pagetable, base + (uint64_t)p * PAGE_SIZE, f, PROT_R | PROT_W | PROT_G)
               : -ENOMEM;
        if (rc && f)
            frame_free(f);
    }
    if (rc)
        kstack_unmap(slot);
    spin_unlock(&kstack_lock);
    return rc ? 0 : base + KSTACK_PAGES * PAGE_SIZE;
}

/*
 * t's slot has newly mapped pages: no hart may keep a translation of them
 * to the frames of an earlier stack. This hart flushes them now; every
 * other hart is asked to flush its whole TLB (tlb_flush_ask), and the
 * tickets go with t. The creator does not wait (fork would sleep for the
 * other hart every time, and its children would start one by one): a
 * hart about to run t whose flush is not done yet flushes t's pages
 * first (the scheduler, kstack_flush_local), and t itself waits for every
 * ticket before it does anything (kstack_await_flushes), so no address on
 * its stack reaches another hart before that hart has flushed.
 */
static void kstack_shootdown(struct thread *t)
{
    irq_save();
    struct cpu *self = this_cpu();
    kstack_flush_local(t);
    for (uint32_t i = 0; i < ncpus; i++)
        t->kstack_flush[i] = &cpus[i] != self && cpus[i].online ? tlb_flush_ask(&cpus[i]) : 0;
    irq_restore();
}

void kstack_flush_local(struct thread *t)
{
    int slot = (int)(t - threads);
    for (int p = 0; p < KSTACK_PAGES; p++)
        mmu_flush_page(kstack_base(slot) + (uint64_t)p * PAGE_SIZE);
}

/* t is new and runs for the first time, interrupts off: it sleeps until
 * every other hart has flushed. Not for the hart it runs on: that one
 * flushed t's pages itself before it switched to t, if its flush was not
 * done yet (kstack_flush_local from the scheduler), and t may wake up on
 * another hart, which then did the same. */
void kstack_await_flushes(struct thread *t)
{
    for (uint32_t i = 0; i < ncpus; i++) {
        uint64_t ticket = t->kstack_flush[i];
        if (ticket && &cpus[i] != this_cpu())
            tlb_flush_wait(&cpus[i], ticket);
        t->kstack_flush[i] = 0;
    }
}

/* Takes slot i if it is unused (EMBRYO, not locked). */
static bool claim_slot(int i)
{
    struct thread *t = &threads[i];
    if (t->state != T_UNUSED)
        return false;
    spin_lock(&t->lock);
    bool free = t->state == T_UNUSED;
    if (free)
        t->state = T_EMBRYO;
    spin_unlock(&t->lock);
    return free;
}

/* Reserves a thread slot (state EMBRYO, not locked) for process p: the
 * parked stack's slot first, else the lowest unused. Taking the parked
 * one whenever it is free also keeps the frames stacks hold the same
 * between two quiet moments: a stack is parked only from a thread's end
 * to the next thread's start. */
struct thread *thread_alloc(struct proc *p, const char *name)
{
    int parked = __atomic_load_n(&kstack_parked, __ATOMIC_RELAXED);
    for (int k = -1; k < MAX_THREADS; k++) {
        int i = k < 0 ? parked : k;
        if (i < 0 || (k >= 0 && i == parked) || !claim_slot(i))
            continue;
        struct thread *t = &threads[i];

        uint64_t top = kstack_map(i);
        if (!top) {
            spin_lock(&t->lock);
            t->state = T_UNUSED;
            spin_unlock(&t->lock);
            return NULL;
        }
        /* Asked for a parked stack too, though it maps what it did: a
         * new thread starts one way whatever its stack (it waits for the
         * other harts before it runs, kstack_await_flushes). */
        kstack_shootdown(t);
        t->tid = __atomic_fetch_add(&next_tid, 1, __ATOMIC_RELAXED);
        t->proc = p;
        t->chan = NULL;
        t->kstack_top = top;
        t->affinity = -1;
        t->cpu = -1;
        t->exit_value = 0;
        t->joined = false;
        t->exited = false;
        t->kentry = NULL;
        t->karg = NULL;
        t->utime = t->stime = 0;
        t->sig_pending = t->sig_blocked = t->sig_waiting = 0;
        t->sig_altstack_sp = t->sig_altstack_size = 0;
        t->sig_posted_at = t->sig_ipi_at = t->sig_interrupted_at = 0;
        t->stamp = arch_read_time();
        kstrlcpy(t->name, name, sizeof t->name);
        memset(&t->tf, 0, sizeof t->tf);
        t->tf.kernel_sp = top;
        thread_sync_ids(t);
        arch_context_init(&t->context, top, thread_first_entry);
        return t;
    }
    return NULL;
}

/* The trapframe carries the ids the light system calls return. */
void thread_sync_ids(struct thread *t)
{
    /* An emulated process's calls all take the full path (kernel/ulf). */
    t->tf.light = params.lightsys == LIGHTSYS_ON && (!t->proc || ulf_light_allowed(t->proc));
    t->tf.pid = t->proc ? (uint64_t)t->proc->pid : 0;
    t->tf.tid = (uint64_t)t->tid;
}

/* Caller holds t->lock, and t is off every hart. */
void thread_free(struct thread *t)
{
#ifdef FL_DEBUG
    if (t->lockrank_nheld)
        panic("thread %d (%s) ended holding sleep lock '%s'", t->tid, t->name,
              t->lockrank_held[0]->name);
#endif
    spin_lock(&kstack_lock);
    if (kstack_parked >= 0)
        kstack_unmap(kstack_parked);
    kstack_parked = (int)(t - threads);
    spin_unlock(&kstack_lock);
    t->proc = NULL;
    t->chan = NULL;
    t->tid = 0;
    t->state = T_UNUSED;
}

static void start(struct thread *t)
{
    spin_lock(&t->lock);
    make_runnable(t);
    spin_unlock(&t->lock);
}

struct thread *kthread_create(const char *name, void (*fn)(void *), void *arg, int affinity)
{
    struct thread *t = thread_alloc(NULL, name);
    if (!t)
        return NULL;
    t->kentry = fn;
    t->karg = arg;
    t->affinity = affinity;
    start(t);
    return t;
}

struct thread *thread_by_tid(int tid)
{
    for (int i = 0; i < MAX_THREADS; i++)
        if (threads[i].state != T_UNUSED && threads[i].tid == tid)
            return &threads[i];
    return NULL;
}

long thread_create_user(uint64_t pc, uint64_t sp, uint64_t a0, uint64_t a1)
{
    struct proc *p = current_proc();
    if (pc < USER_BASE || pc >= USER_TOP || sp <= USER_BASE || sp > USER_TOP || (sp & 15))
        return -EINVAL;
    struct thread *t = thread_alloc(p, p->name);
    if (!t)
        return -EAGAIN;
    arch_trapframe_init(&t->tf, pc, sp, a0, a1);
    t->sig_blocked = current_thread()->sig_blocked;   /* inherited, as in POSIX */
    spin_lock(&p->lock);
    if (p->killed || p->exiting) {
        spin_unlock(&p->lock);
        spin_lock(&t->lock);
        thread_free(t);
        spin_unlock(&t->lock);
        return -EINTR;
    }
    p->nthreads++;
    spin_unlock(&p->lock);
    int tid = t->tid;
    start(t);
    return tid;
}

/*
 * Waits until t, a thread of p that has called thread_exit, is off its hart
 * (ZOMBIE, so its stack is free), then frees its slot. Returns at once if t
 * is no longer p's: a slot may have been freed or reused meanwhile.
 */
static void reap_when_switched_off(struct thread *t, struct proc *p)
{
    for (;;) {
        spin_lock(&t->lock);
        if (t->proc != p || t->state == T_UNUSED) {
            spin_unlock(&t->lock);
            return;
        }
        if (t->state == T_ZOMBIE) {
            thread_free(t);
            spin_unlock(&t->lock);
            return;
        }
        spin_unlock(&t->lock);
        yield();
    }
}

/* Frees every exited thread of p (process teardown, after all exited). */
void thread_reap_all(struct proc *p, struct thread *except)
{
    for (int i = 0; i < MAX_THREADS; i++) {
        struct thread *t = &threads[i];
        if (t != except && t->proc == p)
            reap_when_switched_off(t, p);
    }
}

_Noreturn void thread_exit(long value)
{
    struct thread *t = current_thread();
    struct proc *p = t->proc;
    if (p) {
        spin_lock(&p->lock);
        if (p->nthreads == 1 && !p->exiting) {
            /* The last thread leaving ends the process, as in POSIX. */
            spin_unlock(&p->lock);
            proc_exit(0);
        }
        p->nthreads--;
        t->exited = true;
        t->exit_value = value;
        p->dead_utime += t->utime;
        p->dead_stime += t->stime;
        wakeup(&p->nthreads);
        spin_unlock(&p->lock);
    }
    spin_lock(&t->lock);
    t->state = p ? T_ZOMBIE : T_DEAD;
    sched();
    panic("thread_exit: zombie thread %d ran again", t->tid);
}

long thread_join(int tid, long *value)
{
    struct thread *self = current_thread();
    struct proc *p = self->proc;
    if (tid == self->tid)
        return -EDEADLK;
    spin_lock(&p->lock);
    struct thread *t = thread_by_tid(tid);
    if (!t || t->proc != p) {
        spin_unlock(&p->lock);
        return -ESRCH;
    }
    if (t->joined) {
        spin_unlock(&p->lock);
        return -EINVAL;
    }
    t->joined = true;
    while (!t->exited && !thread_interrupted())
        sleep_on_intr(&p->nthreads, &p->lock);
    if (!t->exited) {
        t->joined = false;
        spin_unlock(&p->lock);
        return -EINTR;
    }
    long v = t->exit_value;
    spin_unlock(&p->lock);
    reap_when_switched_off(t, p);
    if (value)
        *value = v;
    return 0;
}
