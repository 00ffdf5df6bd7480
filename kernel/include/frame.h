/*
 * Physical frames: the core map behind the "frames" lock. Frames are named
 * by physical address here; the kernel reaches a frame through the direct map
 * (PA_TO_KVA).
 */
#ifndef FAULTLINE_FRAME_H
#define FAULTLINE_FRAME_H

#include "types.h"
#include "coremap.h"

/* Boot: builds the core map over [ram_base, ram_top) and releases every
 * frame not in a reserved range. `first_free` is where the core map's own
 * records may be placed (just after the kernel image). */
struct mem_range;
void frames_init(paddr_t ram_base, paddr_t ram_top, paddr_t first_free,
                 const struct mem_range *reserved, int nreserved);

paddr_t frame_alloc(enum frame_state state);          /* 0 when memory is exhausted */
paddr_t frame_alloc_zeroed(enum frame_state state);
void    frame_free(paddr_t pa);                        /* panics on a double free */
paddr_t frame_alloc_owned(void *owner, uint64_t vpn);      /* FRAME_USER, owner recorded */

uint64_t frames_free_count(void);
uint64_t frames_total_count(void);

#endif
