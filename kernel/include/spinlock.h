/*
 * Spinlocks: short critical sections, interrupts off on this hart while held
 * (so an interrupt handler on the same hart cannot deadlock on the lock).
 * Every lock has a name, shown when a lock error panics, and a rank from
 * lockrank.h: its place in the lock order (docs/architecture.md), which the
 * debug build checks on every acquisition (kernel/lock/lockrank.c).
 */
#ifndef FAULTLINE_SPINLOCK_H
#define FAULTLINE_SPINLOCK_H

#include "types.h"
#include "lockrank.h"

struct cpu;

struct spinlock {
    volatile uint32_t locked;
    uint32_t rank;            /* enum lock_rank; fills what was padding */
    const char *name;
    struct cpu *owner;        /* for holding() and diagnostics */
};

#define SPINLOCK_INIT(n, r) { .locked = 0, .rank = (r), .name = (n), .owner = NULL }

void spin_init(struct spinlock *l, const char *name, enum lock_rank rank);
void spin_lock(struct spinlock *l);
void spin_unlock(struct spinlock *l);
bool spin_held(const struct spinlock *l);   /* by this hart */
/* Takes l only if it is free right now: never waits, so it is outside the
 * lock order (lockrank.h); l counts as held once taken. */
bool spin_trylock(struct spinlock *l);

#endif
