#include "spinlock.h"
#include "cpu.h"
#include "printk.h"

/*
 * Every lock pair runs these on every system call that takes a lock, so
 * the interrupt nesting is inline here, on the hart pointer already in
 * hand, with one atomic read-and-clear of the interrupt enable.
 */
static inline void irq_push(struct cpu *c, uint64_t were_on)
{
    if (c->irq_off_depth++ == 0)
        c->irq_were_on = were_on != 0;
}

static inline void irq_pop(struct cpu *c)
{
    if (arch_intr_enabled())
        panic("irq_restore: interrupts are on");
    if (c->irq_off_depth < 1)
        panic("irq_restore: unbalanced");
    if (--c->irq_off_depth == 0 && c->irq_were_on)
        arch_intr_on();
}

void spin_init(struct spinlock *l, const char *name, enum lock_rank rank)
{
    l->locked = 0;
    l->rank = rank;
    l->name = name;
    l->owner = NULL;
}

/*
 * The rank checks are compiled into the debug build only (lockrank.h):
 * a release build's lock and unlock are the same instructions as before
 * locks had ranks.
 */
void spin_lock(struct spinlock *l)
{
    uint64_t were_on = arch_intr_save();
    struct cpu *c = this_cpu();
    irq_push(c, were_on);
    if (l->locked && l->owner == c)
        panic("spinlock %s: acquired twice on cpu %u", l->name, c->id);
#ifdef FL_DEBUG
    lockrank_check_spin(c, l);
#endif
    while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
        arch_pause();
    l->owner = c;
#ifdef FL_DEBUG
    lockrank_spin_taken(c, l);
#endif
}

bool spin_trylock(struct spinlock *l)
{
    uint64_t were_on = arch_intr_save();
    struct cpu *c = this_cpu();
    irq_push(c, were_on);
    if (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE)) {
        irq_pop(c);
        return false;
    }
    l->owner = c;
#ifdef FL_DEBUG
    lockrank_spin_taken(c, l);
#endif
    return true;
}

/* What spin_unlock found wrong. Out of line and called from one place:
 * with a panic call on each of its three checks, the compiler gave
 * spin_unlock a stack frame that every release paid for. */
static __attribute__((noinline, cold, noreturn)) void unlock_misuse(const struct spinlock *l,
                                                                    bool released)
{
    if (!released)
        panic("spinlock %s: released but not held", l->name);
    if (arch_intr_enabled())
        panic("irq_restore: interrupts are on");
    panic("irq_restore: unbalanced");
}

void spin_unlock(struct spinlock *l)
{
    struct cpu *c = this_cpu();
    bool released = false;
    if (__builtin_expect(l->locked && l->owner == c, 1)) {
#ifdef FL_DEBUG
        lockrank_spin_released(c, l);
#endif
        l->owner = NULL;
        __atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
        released = true;
        /* irq_pop, with its checks leading to the one call below */
        if (__builtin_expect(!arch_intr_enabled() && c->irq_off_depth >= 1, 1)) {
            if (--c->irq_off_depth == 0 && c->irq_were_on)
                arch_intr_on();
            return;
        }
    }
    unlock_misuse(l, released);
}

bool spin_held(const struct spinlock *l)
{
    return l->locked && l->owner == this_cpu();
}

void irq_save(void)
{
    uint64_t were_on = arch_intr_save();
    irq_push(this_cpu(), were_on);
}

void irq_restore(void)
{
    irq_pop(this_cpu());
}
