#include "spinlock.h"
#include "cpu.h"
#include "printk.h"

void spin_init(struct spinlock *l, const char *name)
{
    l->locked = 0;
    l->name = name;
    l->owner = NULL;
}

void spin_lock(struct spinlock *l)
{
    irq_save();
    if (spin_held(l))
        panic("spinlock %s: acquired twice on cpu %u", l->name, this_cpu()->id);
    while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
        arch_pause();
    l->owner = this_cpu();
}

void spin_unlock(struct spinlock *l)
{
    if (!spin_held(l))
        panic("spinlock %s: released but not held", l->name);
    l->owner = NULL;
    __atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
    irq_restore();
}

bool spin_held(const struct spinlock *l)
{
    return l->locked && l->owner == this_cpu();
}

void irq_save(void)
{
    bool on = arch_intr_enabled();
    arch_intr_off();
    struct cpu *c = this_cpu();
    if (c->irq_off_depth++ == 0)
        c->irq_were_on = on;
}

void irq_restore(void)
{
    struct cpu *c = this_cpu();
    if (arch_intr_enabled())
        panic("irq_restore: interrupts are on");
    if (c->irq_off_depth < 1)
        panic("irq_restore: unbalanced");
    if (--c->irq_off_depth == 0 && c->irq_were_on)
        arch_intr_on();
}
