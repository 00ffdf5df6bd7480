/*
 * The scheduler: one loop per hart, round-robin over the thread table,
 * honouring CPU affinity. A thread gives up the hart through sched(), which
 * switches to the hart's scheduler context; the scheduler holds the chosen
 * thread's lock across the switch, and the thread releases it when it runs
 * (and the other way round on the way out), so no other hart can pick a
 * thread that is still on its way off a hart.
 *
 * An idle hart waits in wfi and is woken by an IPI when work appears for
 * it: it never spins, which matters under -icount (a spinning hart's
 * instructions would count against everyone) and on a laptop.
 */
#include "proc.h"
#include "blk.h"
#include "printk.h"
#include "mmu.h"
#include "aspace.h"
#include "meter.h"
#include "signal.h"
#include "pcmeter_switch.h"

static uint32_t pick_cursor;   /* where the next scan starts: fairness hint */

/*
 * How many threads are RUNNABLE, for all harts. A hart with nothing to do
 * reads it instead of scanning the whole thread table twice (pick, then
 * the re-check before wfi): those scans were most of what a hart ran
 * between putting its thread to sleep and idling, which under -icount is
 * on everyone's clock. Changed with the thread's lock held, next to the
 * state it counts, and sequentially consistent: a waker increments it
 * before it reads cpu->idle, and an idle hart sets cpu->idle before it
 * reads the count (see idle()), so one of them sees the other.
 */
static uint32_t runnable_count;

/*
 * Which threads are RUNNABLE and which SLEEPING, one bit per slot of the
 * thread table, changed with the thread's lock held next to its state.
 * A pick or a wakeup visits only the threads in the set it wants, found a
 * word at a time, instead of peeking at all MAX_THREADS states: on a
 * machine with a few dozen threads that scan was most of a yield and of
 * every wakeup. Readers peek without locks and check the state under the
 * thread's lock, as before.
 */
#define SET_WORD_BITS 64
#define SET_WORDS (MAX_THREADS / SET_WORD_BITS)
_Static_assert(MAX_THREADS % SET_WORD_BITS == 0, "sched: thread sets are whole words");
static uint64_t runnable_set[SET_WORDS], sleeping_set[SET_WORDS];

static void set_add(uint64_t *set, const struct thread *t)
{
    uint32_t i = (uint32_t)(t - threads);
    __atomic_fetch_or(&set[i / SET_WORD_BITS], 1UL << (i % SET_WORD_BITS), __ATOMIC_SEQ_CST);
}

static void set_remove(uint64_t *set, const struct thread *t)
{
    uint32_t i = (uint32_t)(t - threads);
    __atomic_fetch_and(&set[i / SET_WORD_BITS], ~(1UL << (i % SET_WORD_BITS)), __ATOMIC_SEQ_CST);
}

/* The first slot at or after `from` whose bit is set, or MAX_THREADS. */
static uint32_t set_next(const uint64_t *set, uint32_t from)
{
    if (from >= MAX_THREADS)
        return MAX_THREADS;
    uint32_t k = from / SET_WORD_BITS;
    uint64_t w = __atomic_load_n(&set[k], __ATOMIC_RELAXED) & (~0UL << (from % SET_WORD_BITS));
    while (!w) {
        if (++k == SET_WORDS)
            return MAX_THREADS;
        w = __atomic_load_n(&set[k], __ATOMIC_RELAXED);
    }
    return k * SET_WORD_BITS + (uint32_t)arch_log2_floor(w & -w);   /* lowest set bit */
}

static void became_runnable(struct thread *t)
{
    t->state = T_RUNNABLE;
    set_remove(sleeping_set, t);
    set_add(runnable_set, t);
    __atomic_add_fetch(&runnable_count, 1, __ATOMIC_SEQ_CST);
}

static bool none_runnable(void)
{
    return __atomic_load_n(&runnable_count, __ATOMIC_SEQ_CST) == 0;
}

bool sched_work_waiting(void)
{
    return !none_runnable();
}

static bool may_run_here(const struct thread *t, const struct cpu *c)
{
    /* A swapped-out process has no memory to run in (mm=swap); the one
     * thread writing it out may still run. */
    if (t->proc) {
        uintptr_t hold = __atomic_load_n(&t->proc->mm_hold, __ATOMIC_ACQUIRE);
        if (hold != MM_HOLD_NONE && hold != (uintptr_t)t)
            return false;
    }
    return t->affinity < 0 || t->affinity == (int)c->id;
}

/* The thread handed to this hart by wakeup_thread_next, locked, if it is
 * still RUNNABLE here; else NULL. */
static struct thread *take_handoff(struct cpu *c)
{
    struct thread *t = c->handoff;
    c->handoff = NULL;
    if (!t || t->state != T_RUNNABLE || !may_run_here(t, c))
        return NULL;
    spin_lock(&t->lock);
    if (t->state == T_RUNNABLE && may_run_here(t, c))
        return t;
    spin_unlock(&t->lock);
    return NULL;
}

/* Returns a RUNNABLE thread for this hart with its lock held, or NULL. */
static struct thread *pick_next(struct cpu *c)
{
    if (none_runnable())
        return NULL;
    struct thread *handed = c->handoff ? take_handoff(c) : NULL;
    if (handed)
        return handed;
    uint32_t start = __atomic_load_n(&pick_cursor, __ATOMIC_RELAXED);
    /* From the cursor to the end, then from the start to the cursor. */
    for (int pass = 0; pass < 2; pass++) {
        uint32_t end = pass ? start : MAX_THREADS;
        for (uint32_t i = set_next(runnable_set, pass ? 0 : start); i < end;
             i = set_next(runnable_set, i + 1)) {
            struct thread *t = &threads[i];
            /* Unlocked peek first: a lock per candidate would be slow. */
            if (t->state != T_RUNNABLE || !may_run_here(t, c))
                continue;
            spin_lock(&t->lock);
            if (t->state == T_RUNNABLE && may_run_here(t, c)) {
                __atomic_store_n(&pick_cursor, (i + 1) % MAX_THREADS, __ATOMIC_RELAXED);
                return t;
            }
            spin_unlock(&t->lock);
        }
    }
    return NULL;
}

static bool work_for(const struct cpu *c)
{
    if (none_runnable())
        return false;
    for (uint32_t i = set_next(runnable_set, 0); i < MAX_THREADS; i = set_next(runnable_set, i + 1)) {
        const struct thread *t = &threads[i];
        if (t->state == T_RUNNABLE && may_run_here(t, c))
            return true;
    }
    return false;
}

static void switch_address_space(struct cpu *c, uint64_t root)
{
    if (c->active_root != root) {
        mmu_activate(root);
        c->active_root = root;
    }
}

static void run(struct cpu *c, struct thread *t, bool pcm)
{
    t->state = T_RUNNING;
    set_remove(runnable_set, t);
    __atomic_sub_fetch(&runnable_count, 1, __ATOMIC_SEQ_CST);
    t->cpu = (int)c->id;
    t->tf.kernel_tp = (uint64_t)c;
    /* A new thread's stack slot may still be in this hart's TLB from an
     * earlier stack, if the flush asked for it is not done yet. */
    uint64_t flush = t->kstack_flush[c->id];
    if (flush && !tlb_flush_done(c, flush))
        kstack_flush_local(t);
    c->current = t;
    /* A process's last thread runs on after its address space is freed
     * (exit): any live table will do for it, as all share the kernel half. */
    if (t->proc && t->proc->as)
        switch_address_space(c, t->proc->as->root);
    if (t->proc)
        t->proc->last_ran = arch_read_time();
    if (pcm)
        pcmeter_switch_in(c);
    arch_context_switch(&c->scheduler, &t->context);
    c->current = NULL;
    if (pcm)
        pcmeter_switch_out(c, t);
    /* A thread that has finished may have its address space freed as soon
     * as we let go of its lock: stop using its page table first. */
    if (t->state == T_ZOMBIE || t->state == T_DEAD)
        switch_address_space(c, kernel_pagetable);
    if (t->state == T_DEAD)
        thread_free(t);
    spin_unlock(&t->lock);
}

bool (*sched_idle_work)(void);

/*
 * While a modelled disk request is on the device an idle hart must not
 * wfi (the virtual clock would jump past its due time: blk_model_busy), so
 * it goes round the scheduler loop. Each turn counts instructions, and at
 * -icount shift=10 (1 us of virtual time each; tools/repro_unix.py) the
 * few hundred a turn takes let the virtual clock run far ahead of the
 * host while QEMU works on the request: a 30 ms request ended after 40 to
 * 140 ms, by the host's load. A local TLB flush costs QEMU about a
 * microsecond of host time but retires as one instruction, so a turn that
 * flushes IDLE_DISK_FLUSHES times keeps the virtual clock near the host's
 * pace, and the model's due time, not the host, ends the request.
 */
static void idle_disk_pause(void)
{
    for (int i = 0; i < IDLE_DISK_FLUSHES; i++)
        mmu_flush_local();
}

static void idle(struct cpu *c)
{
    /* Work kept for idle time (pc=daemon's pre-zeroing): its thread
     * becomes runnable, and the next pick takes it. */
    if (sched_idle_work && sched_idle_work())
        return;
    __atomic_store_n(&c->idle, true, __ATOMIC_SEQ_CST);
    /* Re-check after announcing ourselves idle: a waker that missed the
     * flag made its thread RUNNABLE before we looked. wfi wakes on a
     * pending interrupt even with interrupts masked. */
    if (!work_for(c)) {
        if (blk_model_busy())
            idle_disk_pause();
        else
            arch_wait_for_interrupt();
    }
    __atomic_store_n(&c->idle, false, __ATOMIC_SEQ_CST);
}

_Noreturn void scheduler(void)
{
    struct cpu *c = this_cpu();
    c->current = NULL;
    /* Set at boot before any scheduler runs, never changed: read once,
     * so that with the meters off a switch pays a branch on a register. */
    const bool pcm = pcmeters_enabled;
    for (;;) {
        /* Take pending interrupts (devices, IPIs) between picks. */
        arch_intr_on();
        arch_intr_off();
        struct thread *t = pick_next(c);
        if (t) {
            run(c, t, pcm);
        } else {
            idle(c);
            /* The whole turn that found nothing is idle time, the
             * interrupts it took included: under -icount the clock jumps
             * from tick to tick while the disk works in host time, and
             * every tick is such a turn (pcmeter.h, getwork). Stamps
             * follow on from each other (the last switch-out's, then each
             * idle turn's end), so nothing between two turns is left out. */
            if (pcm)
                pcmeter_idle_turn(c);
        }
    }
}

void sched(void)
{
    struct thread *t = current_thread();
    struct cpu *c = this_cpu();
    /* spin_held(), with the hart already in hand: not a call per switch */
    if (!t->lock.locked || t->lock.owner != c)
        panic("sched: thread lock not held");
    if (c->irq_off_depth != 1)
        panic("sched: holding %d locks", c->irq_off_depth);
    if (t->state == T_RUNNING)
        panic("sched: thread still RUNNING");
    if (arch_intr_enabled())
        panic("sched: interrupts on");
    bool were_on = c->irq_were_on;
    uint64_t now = arch_read_time();
    t->stime += now - t->stamp;
    uint64_t off_at = meter_now();
    arch_context_switch(&t->context, &c->scheduler);
    /* We may resume on another hart. */
    c = this_cpu();
    c->irq_were_on = were_on;
    t->stamp = arch_read_time();
    t->offcpu_cycles += meter_now() - off_at;
}

void yield(void)
{
    struct thread *t = current_thread();
    spin_lock(&t->lock);
    became_runnable(t);
    sched();
    spin_unlock(&t->lock);
}

/*
 * Atomically releases lk and sleeps on chan; reacquires lk when woken.
 * A wakeup(chan) issued after we tested our condition (under lk) cannot
 * be lost: we are marked sleeping before lk is released, and wakeup needs
 * t->lock, which we hold until the scheduler has switched away from us.
 */
static void sleep_common(void *chan, struct spinlock *lk, bool interruptible)
{
    struct thread *t = current_thread();
    /* Be visibly asleep before letting go of lk: wakeup() peeks at
     * states without locks, so a waker that takes lk after us must already
     * see T_SLEEPING (it then waits for t->lock, held until we are off the
     * hart). */
    if (lk != &t->lock)
        spin_lock(&t->lock);
    /* A signal poster sets its pending bit, then takes t->lock to wake
     * us: checking under t->lock means it either sees us asleep or we see
     * its bit, so a signal posted after the caller's own check is not lost. */
    if (interruptible && signal_interrupts(t)) {
        if (lk != &t->lock)
            spin_unlock(&t->lock);
        return;
    }
    t->chan = chan;
    t->state = T_SLEEPING;
    set_add(sleeping_set, t);
    if (lk != &t->lock)
        spin_unlock(lk);
    sched();
    t->chan = NULL;
    if (lk != &t->lock) {
        spin_unlock(&t->lock);
        spin_lock(lk);
    }
}

void sleep_on(void *chan, struct spinlock *lk)
{
    sleep_common(chan, lk, false);
}

/* For waits a signal may end: returns without sleeping if the thread
 * already has one to take (the caller re-checks and returns -EINTR). */
void sleep_on_intr(void *chan, struct spinlock *lk)
{
    sleep_common(chan, lk, true);
}

void make_runnable(struct thread *t)
{
    became_runnable(t);
    kick_cpu_for(t);
}

void wakeup(void *chan)
{
    struct thread *self = current_thread();
    for (uint32_t i = set_next(sleeping_set, 0); i < MAX_THREADS; i = set_next(sleeping_set, i + 1)) {
        struct thread *t = &threads[i];
        if (t == self || t->state != T_SLEEPING)
            continue;
        spin_lock(&t->lock);
        if (t->state == T_SLEEPING && t->chan == chan)
            make_runnable(t);
        spin_unlock(&t->lock);
    }
}

void wakeup_thread(struct thread *t, void *chan)
{
    spin_lock(&t->lock);
    if (t->state == T_SLEEPING && t->chan == chan)
        make_runnable(t);
    spin_unlock(&t->lock);
}

void wakeup_thread_next(struct thread *t, void *chan)
{
    spin_lock(&t->lock);
    if (t->state == T_SLEEPING && t->chan == chan) {
        make_runnable(t);
        /* Interrupts are off under t->lock: this is still our hart. */
        this_cpu()->handoff = t;
    }
    spin_unlock(&t->lock);
}

static void ipi(struct cpu *c, uint32_t what)
{
    __atomic_fetch_or(&c->ipi_pending, what, __ATOMIC_SEQ_CST);
    arch_ipi_send(c->hartid);
}

/* Wakes one idle hart that may run t; a busy hart finds it at its next pick. */
void kick_cpu_for(struct thread *t)
{
    struct cpu *self = this_cpu();
    /* Pinned: only its hart may run it (this one is awake), so that is the
     * only one to look at; the loop below would find the same. */
    if (t->affinity >= 0) {
        struct cpu *c = &cpus[t->affinity];
        if (c != self && c->online && may_run_here(t, c) && __atomic_load_n(&c->idle, __ATOMIC_SEQ_CST))
            ipi(c, IPI_RESCHEDULE);
        return;
    }
    for (uint32_t i = 0; i < ncpus; i++) {
        struct cpu *c = &cpus[i];
        if (c == self || !c->online || !may_run_here(t, c))
            continue;
        if (__atomic_load_n(&c->idle, __ATOMIC_SEQ_CST)) {
            ipi(c, IPI_RESCHEDULE);
            return;
        }
    }
}

void cpu_send_ipi(struct cpu *c, uint32_t what)
{
    ipi(c, what);
}

/*
 * A shootdown request is a ticket, not just the IPI_TLB_FLUSH bit: with
 * the bit alone, a second requester that set it again just after the
 * target flushed, but before the target cleared it, would see it clear
 * and go on with its own change never flushed. The target clears the bit
 * first, then reads the ticket count, then flushes: a ticket it did not
 * see was taken after the bit was cleared, so its bit is set again and
 * the target comes back for it.
 */
uint64_t tlb_flush_ask(struct cpu *c)
{
    uint64_t ticket = __atomic_add_fetch(&c->tlb_flush_asked, 1, __ATOMIC_SEQ_CST);
    ipi(c, IPI_TLB_FLUSH);
    return ticket;
}

bool tlb_flush_done(const struct cpu *c, uint64_t ticket)
{
    return __atomic_load_n(&c->tlb_flush_done, __ATOMIC_SEQ_CST) >= ticket;
}

/*
 * Waiting by sleeping rather than yielding in a loop: the target may be
 * this hart's only chance to run (under -icount QEMU runs the harts in
 * turn, and a hart that yields in a loop never gives up its turn, so
 * each wait cost a whole turn, which also moved the harts' ticks against
 * each other). The waiter counts itself in before it looks at done; the
 * target publishes done before it looks at the count, and wakes the
 * waiters under tlbwait_lock, which they hold until they are asleep.
 */
static struct spinlock tlbwait_lock = SPINLOCK_INIT("tlbwait", LOCK_RANK_TLBWAIT);

void tlb_flush_wait(struct cpu *c, uint64_t ticket)
{
    spin_lock(&tlbwait_lock);
    __atomic_add_fetch(&c->tlb_flush_waiters, 1, __ATOMIC_SEQ_CST);
    while (!tlb_flush_done(c, ticket))
        sleep_on(&c->tlb_flush_done, &tlbwait_lock);
    __atomic_sub_fetch(&c->tlb_flush_waiters, 1, __ATOMIC_SEQ_CST);
    spin_unlock(&tlbwait_lock);
}

static void tlb_flush_wake(struct cpu *c)
{
    if (!__atomic_load_n(&c->tlb_flush_waiters, __ATOMIC_SEQ_CST))
        return;
    spin_lock(&tlbwait_lock);
    wakeup(&c->tlb_flush_done);
    spin_unlock(&tlbwait_lock);
}

/* First code a new thread runs, entered from the scheduler's switch. */
void thread_first_entry(void)
{
    struct thread *t = current_thread();
    spin_unlock(&t->lock);
    kstack_await_flushes(t);
    t->stamp = arch_read_time();
    if (t->kentry) {
        /* Kernel threads run their body; a process's first thread may too
         * (init execs its program here) before going to user mode. */
        arch_intr_on();
        t->kentry(t->karg);
        if (!t->proc)
            thread_exit(0);
        arch_intr_off();
    }
    user_return_prepare(t);
    arch_return_to_user(&t->tf);
}

/* IPI_TLB_FLUSH. Out of line, so that the IPI a signal sends (the
 * cross-hart delivery lat measures) pays nothing for it. */
static __attribute__((noinline)) void tlb_flush_here(struct cpu *c)
{
    /* The bit before the tickets (see tlb_flush_ask); the caller leaves
     * it alone after. */
    __atomic_fetch_and(&c->ipi_pending, ~IPI_TLB_FLUSH, __ATOMIC_SEQ_CST);
    uint64_t asked = __atomic_load_n(&c->tlb_flush_asked, __ATOMIC_SEQ_CST);
    /* Drop a table we hold only lazily: its space may be going away. */
    struct thread *t = c->current;
    if (!t || !t->proc || !t->proc->as || t->proc->as->root != c->active_root) {
        mmu_activate(kernel_pagetable);
        c->active_root = kernel_pagetable;
    } else {
        mmu_flush_local();
    }
    __atomic_store_n(&c->tlb_flush_done, asked, __ATOMIC_SEQ_CST);
    tlb_flush_wake(c);
}

void ipi_interrupt(void)
{
    struct cpu *c = this_cpu();
    arch_ipi_clear();
    /* probe: target interrupted. A signal to a thread running here comes
     * as IPI_RESCHEDULE; it is delivered on the way back to user mode. */
    struct thread *running = c->current;
    if (running && running->sig_ipi_at) {
        running->sig_interrupted_at = meter_now();
        meter_record(FL_METER_SIGNAL_IPI_TO_INTERRUPT, running->sig_ipi_at, running->sig_interrupted_at);
        running->sig_ipi_at = 0;
    }
    uint32_t what = __atomic_load_n(&c->ipi_pending, __ATOMIC_SEQ_CST);
    if (what & IPI_TLB_FLUSH) {
        tlb_flush_here(c);
        what &= ~IPI_TLB_FLUSH;
    }
    __atomic_fetch_and(&c->ipi_pending, ~what, __ATOMIC_SEQ_CST);
}
