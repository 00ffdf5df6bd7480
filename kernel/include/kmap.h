#ifndef FAULTLINE_KMAP_H
#define FAULTLINE_KMAP_H
#include "types.h"
#include "frame.h"
/* Builds the kernel page table covering physical [0, phys_top) and loads it. */
void kmap_init(paddr_t phys_top);
#endif
