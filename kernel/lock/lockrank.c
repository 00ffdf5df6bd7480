/*
 * Lock-rank checks of the debug build (make DEBUG=1): every acquisition is
 * compared with the locks already held, and one that breaks the order of
 * lockrank.h panics naming both locks and their ranks, before it can
 * deadlock. A release build compiles none of this.
 *
 * Spinlocks are held by a hart: interrupts stay off while one is held, so
 * the list of them lives in struct cpu, and only its own hart touches it.
 * A thread lock held across a context switch is taken and let go on the
 * same hart (sched.c), so it stays in one hart's list. Sleep locks are
 * held by a thread across sleeps and harts: their list lives in struct
 * thread, and only the thread itself changes it, with interrupts off so
 * an interrupt handler that checks a spinlock against it on the same hart
 * never sees it half-changed.
 */
#include "lockrank.h"

#ifdef FL_DEBUG

#include "cpu.h"
#include "proc.h"
#include "sleeplock.h"
#include "printk.h"

struct held_lock {
    const char *kind;       /* "spinlock", "sleep lock" */
    const char *name;
    uint32_t rank;
    bool guard;             /* a sleep lock's guard: the name is its sleep lock's */
};

static struct held_lock spin_desc(const struct spinlock *l)
{
    return (struct held_lock){ "spinlock", l->name, l->rank, l->rank == LOCK_RANK_GUARD };
}

static struct held_lock sleep_desc(const struct sleeplock *l)
{
    return (struct held_lock){ "sleep lock", l->name, l->rank, false };
}

static bool rank_is_known(uint32_t rank)
{
#define LOCK_RANK_KNOWN(c, r, k, n) if (rank == (r)) return true;
    LOCK_RANK_TABLE(LOCK_RANK_KNOWN)
#undef LOCK_RANK_KNOWN
    return false;
}

static _Noreturn void violation(const struct held_lock *want, const struct held_lock *held)
{
    panic("lock order: taking %s %s'%s' (rank %u) while holding %s %s'%s' (rank %u); "
          "a lock's rank must be above every held lock's (lockrank.h)",
          want->kind, want->guard ? "guard of " : "", want->name, want->rank,
          held->kind, held->guard ? "guard of " : "", held->name, held->rank);
}

/* Panics if want may not be taken while this hart holds its spinlocks and
 * the running thread (if any) its sleep locks. */
static void check(const struct cpu *c, const struct thread *t, const struct held_lock *want)
{
    if (!rank_is_known(want->rank))
        panic("lock order: %s '%s' has rank %u, not one of lockrank.h's: "
              "give it one at init", want->kind, want->name, want->rank);
    for (int i = 0; i < c->lockrank_nheld; i++) {
        struct held_lock h = spin_desc(c->lockrank_held[i]);
        if (want->rank <= h.rank)
            violation(want, &h);
    }
    for (int i = 0; t && i < t->lockrank_nheld; i++) {
        if (t->lockrank_held[i]->fresh)
            continue;                   /* nobody can wait for it: orders nothing */
        struct held_lock h = sleep_desc(t->lockrank_held[i]);
        if (want->rank <= h.rank)
            violation(want, &h);
    }
}

void lockrank_check_spin(struct cpu *c, const struct spinlock *l)
{
    struct held_lock want = spin_desc(l);
    check(c, current_thread(), &want);
}

void lockrank_spin_taken(struct cpu *c, const struct spinlock *l)
{
    if (c->lockrank_nheld == LOCKRANK_MAX_HELD)
        panic("lock order: hart %u holds more than %d spinlocks, taking '%s'",
              c->id, LOCKRANK_MAX_HELD, l->name);
    c->lockrank_held[c->lockrank_nheld++] = l;
}

/* Locks may be let go in any order: remove l wherever it is. */
#define FORGET(arr, n, l)                                   \
    do {                                                    \
        int at_ = 0;                                        \
        while (at_ < (n) && (arr)[at_] != (l))              \
            at_++;                                          \
        if (at_ == (n))                                     \
            return false;                                   \
        for ((n)--; at_ < (n); at_++)                       \
            (arr)[at_] = (arr)[at_ + 1];                    \
        return true;                                        \
    } while (0)

static bool forget_spin(struct cpu *c, const struct spinlock *l)
{
    FORGET(c->lockrank_held, c->lockrank_nheld, l);
}

static bool forget_sleep(struct thread *t, const struct sleeplock *l)
{
    FORGET(t->lockrank_held, t->lockrank_nheld, l);
}

void lockrank_spin_released(struct cpu *c, const struct spinlock *l)
{
    if (!forget_spin(c, l))
        panic("lock order: spinlock '%s' released on hart %u, which did not record it",
              l->name, c->id);
}

/* Interrupts off: this thread cannot move to another hart while it reads
 * that hart's list. */
void lockrank_check_sleep(const struct sleeplock *l)
{
    irq_save();
    struct held_lock want = sleep_desc(l);
    check(this_cpu(), current_thread(), &want);
    irq_restore();
}

void lockrank_sleep_taken(const struct sleeplock *l)
{
    struct thread *t = current_thread();
    if (!t)
        panic("lock order: sleep lock '%s' taken outside a thread", l->name);
    irq_save();
    if (t->lockrank_nheld == LOCKRANK_MAX_HELD)
        panic("lock order: thread %d holds more than %d sleep locks, taking '%s'",
              t->tid, LOCKRANK_MAX_HELD, l->name);
    t->lockrank_held[t->lockrank_nheld++] = l;
    irq_restore();
}

void lockrank_sleep_released(const struct sleeplock *l)
{
    struct thread *t = current_thread();
    bool known = t && forget_sleep(t, l);
    if (!known)
        panic("lock order: sleep lock '%s' released by a thread that did not record it",
              l->name);
}

#endif /* FL_DEBUG */
