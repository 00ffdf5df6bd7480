/* Sleeping locks: for long holds that may block (page faults, file I/O).
 * The holder may sleep; waiters sleep instead of spinning. Each has a rank
 * from lockrank.h, like a spinlock; its guard spinlock has LOCK_RANK_GUARD. */
#ifndef FAULTLINE_SLEEPLOCK_H
#define FAULTLINE_SLEEPLOCK_H

#include "spinlock.h"

struct thread;

/* state: SLEEPLOCK_HELD, plus SLEEPLOCK_WAITER for each thread asleep in
 * acquire. Taking a free lock and letting go of one nobody waits for are
 * one compare-and-swap each, without the guard; the guard orders only the
 * waiters' sleeps against the wake-up of a release that finds them. */
#define SLEEPLOCK_HELD   1u
#define SLEEPLOCK_WAITER 2u

struct sleeplock {
    struct spinlock guard;
    uint32_t state;
#ifdef FL_DEBUG
    bool fresh;               /* taken by sleeplock_acquire_fresh: orders nothing */
#endif
    uint16_t rank;            /* enum lock_rank */
    struct thread *holder;
    const char *name;
};

void sleeplock_init(struct sleeplock *l, const char *name, enum lock_rank rank);
void sleeplock_acquire(struct sleeplock *l);
/* For a lock no other thread can wait for yet: a space being built (the
 * new child's in fork, the new image's in exec), which only the
 * replacement clock can find, and only tries. Taken like
 * sleeplock_acquire, but outside the lock order both ways: nobody can wait
 * for it, so it can close no cycle, and the debug build neither checks it
 * nor counts it against locks taken while it is held (a fault in the new
 * image may take the current image's space, of the same rank). */
void sleeplock_acquire_fresh(struct sleeplock *l);
void sleeplock_release(struct sleeplock *l);
/* Takes l if nobody holds it; never sleeps, nor spins (the guard is only
 * tried too: a guard held for a moment makes it fail), so it may be called
 * under any spinlock and is outside the lock order: the page-replacement
 * clock looks at other processes' spaces that way, under the frames lock,
 * and passes over a busy one rather than wait. */
bool sleeplock_try(struct sleeplock *l);
bool sleeplock_held_by_me(const struct sleeplock *l);

#endif
