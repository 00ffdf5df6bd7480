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
/* Takes l if nobody holds it; never sleeps, so it may be called under a
 * spinlock (the page-replacement clock looks at other processes' spaces
 * that way and passes over a busy one rather than wait). */
bool sleeplock_try(struct sleeplock *l);
bool sleeplock_held_by_me(const struct sleeplock *l);

#endif
