/*
 * Spinlocks: short critical sections, interrupts off on this hart while held
 * (so an interrupt handler on the same hart cannot deadlock on the lock).
 * Every lock has a name, shown when a lock error panics.
 * The lock order is written in docs/architecture.md.
 */
#ifndef FAULTLINE_SPINLOCK_H
#define FAULTLINE_SPINLOCK_H

#include "types.h"

struct cpu;

struct spinlock {
    volatile uint32_t locked;
    const char *name;
    struct cpu *owner;        /* for holding() and diagnostics */
};

#define SPINLOCK_INIT(n) { .locked = 0, .name = (n), .owner = NULL }

void spin_init(struct spinlock *l, const char *name);
void spin_lock(struct spinlock *l);
void spin_unlock(struct spinlock *l);
bool spin_held(const struct spinlock *l);   /* by this hart */

#endif
