#ifndef FAULTLINE_PLIC_H
#define FAULTLINE_PLIC_H
#include "types.h"
void plic_init(paddr_t base);
void plic_enable(uint32_t irq, uint32_t hartid);   /* route irq to that hart's S-mode context */
uint32_t plic_claim(uint32_t hartid);              /* 0 if nothing pending */
void plic_complete(uint32_t hartid, uint32_t irq);
void plic_hart_init(uint32_t hartid);
#endif
