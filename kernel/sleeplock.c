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
