/*
 * RISC-V platform-level interrupt controller. Each hart reaches the PLIC
 * through its S-mode context, whose number the device tree gives
 * (board.plic_s_context, from the PLIC's interrupts-extended).
 */
#include "plic.h"
#include <arch/arch.h>

#define PLIC_PRIORITY(irq)      (4 * (irq))
#define PLIC_ENABLE(ctx)        (0x2000 + 0x80 * (ctx))
#define PLIC_THRESHOLD(ctx)     (0x200000 + 0x1000 * (ctx))
#define PLIC_CLAIM(ctx)         (0x200004 + 0x1000 * (ctx))
#define PLIC_PRIORITY_DEVICE    1

static uintptr_t plic;

static inline volatile uint32_t *reg(uint64_t off) { return (volatile uint32_t *)(plic + off); }

void plic_init(paddr_t base)
{
    plic = PA_TO_KVA(base);
}

void plic_hart_init(uint32_t ctx)
{
    *reg(PLIC_THRESHOLD(ctx)) = 0;
}

void plic_enable(uint32_t irq, uint32_t ctx)
{
    *reg(PLIC_PRIORITY(irq)) = PLIC_PRIORITY_DEVICE;
    volatile uint32_t *en = reg(PLIC_ENABLE(ctx) + 4 * (irq / 32));
    *en |= 1U << (irq % 32);
}

uint32_t plic_claim(uint32_t ctx)
{
    return *reg(PLIC_CLAIM(ctx));
}

void plic_complete(uint32_t ctx, uint32_t irq)
{
    *reg(PLIC_CLAIM(ctx)) = irq;
}
