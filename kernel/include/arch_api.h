/*
 * The narrow interface between the portable kernel and an architecture.
 * A port provides <arch/arch.h> (inline helpers, struct trapframe,
 * struct context, struct kframe) and implements the functions below.
 */
#ifndef FAULTLINE_ARCH_API_H
#define FAULTLINE_ARCH_API_H

#include "types.h"
#include <arch/arch.h>
#include "irq.h"

struct cpu;

/* --- per-hart setup --- */
void arch_hart_init(struct cpu *c);                 /* trap vector, counters, interrupt enables */
int  arch_hart_start(uint32_t hartid, uint64_t opaque); /* start a secondary hart (0 or -errno) */
bool arch_hart_stopped(uint32_t hartid);            /* firmware holds it, ready to be started */

/* --- threads --- */
void arch_context_switch(struct context *save, struct context *load);
void arch_context_init(struct context *c, uint64_t stack_top, void (*entry)(void));
void arch_trapframe_init(struct trapframe *tf, uint64_t pc, uint64_t sp, uint64_t a0, uint64_t a1);
_Noreturn void arch_return_to_user(struct trapframe *tf);

/* --- signal frames (the caller has checked the frame's whole user range) --- */
/* Writes the frame at uva from tf: magic, registers, sig, addr, blocked. 0 or -EFAULT. */
long arch_sigframe_push(uint64_t uva, const struct trapframe *tf, uint64_t sig, uint64_t addr,
                        uint64_t blocked);
/* Loads tf and *blocked back from the frame at uva. 0; -EINVAL without the
 * magic or with a non-user pc, tf untouched; or -EFAULT. */
long arch_sigframe_pop(struct trapframe *tf, uint64_t uva, uint64_t *blocked);

/* --- timer and IPIs --- */
void arch_timer_program(uint64_t deadline);          /* in arch_read_time() units */
/* Chooses how IPIs are sent, from the board; once, on the boot hart, with
 * the kernel map live and before another hart starts. Returns a name for
 * the mechanism, for the boot banner. */
const char *arch_ipi_init(void);
void arch_ipi_send(uint32_t hartid);
void arch_ipi_clear(void);

/* --- interrupt controller: arch_irq_init, arch_irq_hart_init,
 *     arch_irq_enable, arch_irq_claim, arch_irq_complete (irq.h) --- */

/* --- counters --- */
/* True if the cycle and instret counters count retired instructions
 * (QEMU -icount; *shift = log2 of the ticks per instruction), false if
 * they follow the host's clock. Boot hart, before other harts start. */
bool arch_counters_probe(unsigned *shift);

/* --- early console --- */
/* Writes one byte where the firmware or the board puts text before any
 * console driver is known (a damaged device tree, output before the UART
 * is set up). Slow, polled, always there. */
void arch_early_putchar(int c);

/* --- what the port needs of the board --- */
/* NULL if the harts the device tree describes have every instruction-set
 * extension the port relies on, else the missing one, for the boot to say
 * before it stops. */
const char *arch_board_unsupported(void);

/* --- power --- */
_Noreturn void arch_poweroff(int code);

/* --- diagnostics --- */
void arch_backtrace(uint64_t pc, uint64_t fp, void (*emit)(int depth, uint64_t pc));

#endif
