/*
 * Device interrupts. A driver registers a handler for its interrupt line
 * (the number the device tree gives it); the line is then routed to the
 * boot hart, and the trap layer runs the handler each time the line
 * fires. The interrupt controller itself (on riscv64 the PLIC) sits
 * behind the arch_irq_* functions below, which each port implements.
 *
 * Handlers run in interrupt context, interrupts off: they may take
 * spinlocks and wake threads, never sleep.
 */
#ifndef FAULTLINE_IRQ_H
#define FAULTLINE_IRQ_H

#include "types.h"

struct cpu;

typedef void (*irq_handler_fn)(void *arg);

/* Runs handler(arg) for every interrupt of line irq and routes the line
 * to the boot hart. Drivers register at boot, before other harts start.
 * Returns 0, -EINVAL (line 0, a line the controller or IRQ_LINES does not
 * have, or no handler), -EBUSY (the line has a handler already) or
 * -ENODEV (no interrupt controller reaches the boot hart). */
int irq_register(uint32_t irq, irq_handler_fn handler, void *arg);

/* A device interrupt on this hart (from the trap layer): claims the
 * pending line, runs its handler, completes it. A line without a handler
 * is completed and counted (irq_unhandled). */
void irq_handle(void);

/* Interrupts claimed that had no handler, since boot. */
uint64_t irq_unhandled(void);

/* --- provided by the arch: the interrupt controller --- */

/* Finds the controller on the board and works out which of its inputs
 * reaches each hart; boot hart, once, after the cpus are known and before
 * another hart starts. NULL, or why there will be no device interrupts. */
const char *arch_irq_init(void);
/* This hart takes the lines routed to it (each secondary hart, once). */
void arch_irq_hart_init(struct cpu *c);
/* Routes line irq to the boot hart: 0, -EINVAL (no such line) or -ENODEV
 * (no controller for the boot hart). */
int arch_irq_enable(uint32_t irq);
/* The highest-priority line pending for this hart, 0 if none; the line
 * stays masked for this hart until arch_irq_complete(). */
uint32_t arch_irq_claim(void);
void arch_irq_complete(uint32_t irq);

#endif
