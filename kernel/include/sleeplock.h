/* Sleeping locks: for long holds that may block (page faults, file I/O).
 * The holder may sleep; waiters sleep instead of spinning. */
#ifndef FAULTLINE_SLEEPLOCK_H
#define FAULTLINE_SLEEPLOCK_H

#include "spinlock.h"

struct thread;

struct sleeplock {
    struct spinlock guard;
    bool locked;
    int waiters;              /* threads asleep in acquire: release wakes only if any */
    struct thread *holder;
    const char *name;
};

void sleeplock_init(struct sleeplock *l, const char *name);
void sleeplock_acquire(struct sleeplock *l);
void sleeplock_release(struct sleeplock *l);

#endif
