/*
 * Device-interrupt routing (irq.h): a table of handlers indexed by line.
 *
 * No lock: a line gets its handler once, at boot, by compare-and-swap,
 * and its argument is written before the line is enabled, so a handler
 * runs only after its entry is complete. Entries never change after that.
 */
#include "irq.h"
#include "config.h"
#include <faultline/errno.h>

struct irq_line {
    irq_handler_fn handler;
    void *arg;
};

static struct irq_line lines[IRQ_LINES];
static uint64_t unhandled;

int irq_register(uint32_t irq, irq_handler_fn handler, void *arg)
{
    if (irq == 0 || irq >= IRQ_LINES || !handler)
        return -EINVAL;
    struct irq_line *l = &lines[irq];
    irq_handler_fn none = NULL;
    if (!__atomic_compare_exchange_n(&l->handler, &none, handler, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        return -EBUSY;
    l->arg = arg;
    /* The entry is complete before the controller can deliver the line. */
    __atomic_thread_fence(__ATOMIC_RELEASE);
    int rc = arch_irq_enable(irq);
    if (rc)
        __atomic_store_n(&l->handler, NULL, __ATOMIC_RELEASE);   /* the line stays free */
    return rc;
}

void irq_handle(void)
{
    uint32_t irq = arch_irq_claim();
    if (!irq)
        return;
    irq_handler_fn h = irq < IRQ_LINES ? __atomic_load_n(&lines[irq].handler, __ATOMIC_ACQUIRE)
                                       : NULL;
    if (h)
        h(lines[irq].arg);
    else
        __atomic_fetch_add(&unhandled, 1, __ATOMIC_RELAXED);
    arch_irq_complete(irq);
}

uint64_t irq_unhandled(void)
{
    return __atomic_load_n(&unhandled, __ATOMIC_RELAXED);
}
