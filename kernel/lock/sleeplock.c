#include "sleeplock.h"
#include "proc.h"
#include "printk.h"

void sleeplock_init(struct sleeplock *l, const char *name, enum lock_rank rank)
{
    spin_init(&l->guard, name, LOCK_RANK_GUARD);
    l->locked = false;
    l->rank = (uint16_t)rank;
    l->waiters = 0;
    l->holder = NULL;
    l->name = name;
}

/* Inlined into both callers, so a release build's acquire is what it was. */
static inline __attribute__((always_inline)) void acquire(struct sleeplock *l, bool fresh)
{
    (void)fresh;
    spin_lock(&l->guard);
    while (l->locked) {
        l->waiters++;
        sleep_on(l, &l->guard);
        l->waiters--;
    }
    l->locked = true;
    l->holder = current_thread();
#ifdef FL_DEBUG
    l->fresh = fresh;
#endif
    spin_unlock(&l->guard);
#ifdef FL_DEBUG
    lockrank_sleep_taken(l);
#endif
}

void sleeplock_acquire(struct sleeplock *l)
{
#ifdef FL_DEBUG
    lockrank_check_sleep(l);
#endif
    acquire(l, false);
}

void sleeplock_acquire_fresh(struct sleeplock *l)
{
    acquire(l, true);
}

void sleeplock_release(struct sleeplock *l)
{
    spin_lock(&l->guard);
    if (!l->locked || l->holder != current_thread())
        panic("sleeplock %s: released by a thread that does not hold it", l->name);
#ifdef FL_DEBUG
    lockrank_sleep_released(l);
#endif
    l->locked = false;
    l->holder = NULL;
    /* wakeup() scans every thread; an uncontended release (the fault path's
     * common case) should not pay for that. */
    if (l->waiters)
        wakeup(l);
    spin_unlock(&l->guard);
}

bool sleeplock_try(struct sleeplock *l)
{
    if (!spin_trylock(&l->guard))
        return false;
    bool got = !l->locked;
    if (got) {
        l->locked = true;
        l->holder = current_thread();
#ifdef FL_DEBUG
        l->fresh = false;
#endif
    }
    spin_unlock(&l->guard);
#ifdef FL_DEBUG
    if (got)
        lockrank_sleep_taken(l);
#endif
    return got;
}

bool sleeplock_held_by_me(const struct sleeplock *l)
{
    /* Only the holder itself can see its own name here: nobody else can
     * make it true or false behind the caller's back. */
    return __atomic_load_n(&l->locked, __ATOMIC_ACQUIRE) && l->holder == current_thread();
}
