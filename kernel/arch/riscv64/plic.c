/*
 * RISC-V platform-level interrupt controller: the riscv64 implementation
 * of the arch_irq_* interface (irq.h). Each hart reaches the PLIC through
 * its S-mode context, whose number the device tree gives
 * (board.arch.plic_s_context, from the PLIC's interrupts-extended); every
 * device line is routed to the boot hart's context only, so other harts
 * (and their -icount measurements) never see device interrupts.
 */
#include "irq.h"
#include "cpu.h"
#include "board.h"
#include <arch/arch.h>
#include <faultline/errno.h>

#define PLIC_PRIORITY(irq)      (4 * (irq))
#define PLIC_ENABLE(ctx)        (0x2000 + 0x80 * (ctx))
#define PLIC_THRESHOLD(ctx)     (0x200000 + 0x1000 * (ctx))
#define PLIC_CLAIM(ctx)         (0x200004 + 0x1000 * (ctx))
#define PLIC_PRIORITY_DEVICE    1

static uintptr_t plic;     /* 0 until arch_irq_init found one the boot hart reaches */

static inline volatile uint32_t *reg(uint64_t off) { return (volatile uint32_t *)(plic + off); }

/* The S-mode context of the hart with this id, FDT_NO_CONTEXT if the
 * device tree does not say. */
static uint32_t context_of(uint32_t hartid)
{
    for (int h = 0; h < board.nharts; h++)
        if (board.hart_ids[h] == hartid)
            return board.arch.plic_s_context[h];
    return FDT_NO_CONTEXT;
}

const char *arch_irq_init(void)
{
    for (uint32_t i = 0; i < ncpus; i++)
        cpus[i].arch.plic_context = board.arch.plic.present ? context_of(cpus[i].hartid)
                                                       : FDT_NO_CONTEXT;
    if (!board.arch.plic.present)
        return "the device tree has no PLIC";
    if (cpus[0].arch.plic_context == FDT_NO_CONTEXT)
        return "no PLIC context for the boot hart";
    plic = PA_TO_KVA(board.arch.plic.base);
    arch_irq_hart_init(&cpus[0]);
    return NULL;
}

void arch_irq_hart_init(struct cpu *c)
{
    if (plic && c->arch.plic_context != FDT_NO_CONTEXT)
        *reg(PLIC_THRESHOLD(c->arch.plic_context)) = 0;   /* take every priority */
}

int arch_irq_enable(uint32_t irq)
{
    if (!plic)
        return -ENODEV;
    if (irq == 0 || (board.arch.plic_ndev && irq > board.arch.plic_ndev))
        return -EINVAL;
    uint32_t ctx = cpus[0].arch.plic_context;
    *reg(PLIC_PRIORITY(irq)) = PLIC_PRIORITY_DEVICE;
    volatile uint32_t *en = reg(PLIC_ENABLE(ctx) + 4 * (irq / 32));
    *en |= 1U << (irq % 32);
    return 0;
}

uint32_t arch_irq_claim(void)
{
    uint32_t ctx = this_cpu()->arch.plic_context;
    if (!plic || ctx == FDT_NO_CONTEXT)
        return 0;
    return *reg(PLIC_CLAIM(ctx));
}

void arch_irq_complete(uint32_t irq)
{
    *reg(PLIC_CLAIM(this_cpu()->arch.plic_context)) = irq;
}
