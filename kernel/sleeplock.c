#include "sleeplock.h"
#include "proc.h"
#include "printk.h"

void sleeplock_init(struct sleeplock *l, const char *name)
{
    spin_init(&l->guard, name);
    l->locked = false;
    l->waiters = 0;
    l->holder = NULL;
    l->name = name;
}

void sleeplock_acquire(struct sleeplock *l)
{
    spin_lock(&l->guard);
    while (l->locked) {
        l->waiters++;
        sleep_on(l, &l->guard);
        l->waiters--;
    }
    l->locked = true;
    l->holder = current_thread();
    spin_unlock(&l->guard);
}

void sleeplock_release(struct sleeplock *l)
{
    spin_lock(&l->guard);
    if (!l->locked || l->holder != current_thread())
        panic("sleeplock %s: released by a thread that does not hold it", l->name);
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
    spin_lock(&l->guard);
    bool got = !l->locked;
    if (got) {
        l->locked = true;
        l->holder = current_thread();
    }
    spin_unlock(&l->guard);
    return got;
}

bool sleeplock_held_by_me(const struct sleeplock *l)
{
    /* Only the holder itself can see its own name here: nobody else can
     * make it true or false behind the caller's back. */
    return __atomic_load_n(&l->locked, __ATOMIC_ACQUIRE) && l->holder == current_thread();
}
