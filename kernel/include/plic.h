#ifndef FAULTLINE_PLIC_H
#define FAULTLINE_PLIC_H
#include "types.h"
void plic_init(paddr_t base);
/* ctx is a hart's S-mode context number (struct cpu.plic_context). */
void plic_enable(uint32_t irq, uint32_t ctx);      /* route irq to that context */
uint32_t plic_claim(uint32_t ctx);                 /* 0 if nothing pending */
void plic_complete(uint32_t ctx, uint32_t irq);
void plic_hart_init(uint32_t ctx);
#endif
