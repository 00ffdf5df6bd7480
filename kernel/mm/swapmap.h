/*
 * The swap-slot map: which page slots of the swap space are in use, a
 * bitmap allocator of contiguous extents. The swap manager asks for a
 * whole process image in one extent (as V7 did, so it moves in long
 * sequential transfers); the paging manager asks for single slots. First
 * fit from a rotating hint.
 *
 * Pure algorithm (no locks, no I/O) so it is unit tested on the host;
 * kernel/mm/swapspace.c wraps it with the "swap" lock and the block device.
 */
#ifndef FAULTLINE_SWAPMAP_H
#define FAULTLINE_SWAPMAP_H

#include "types.h"

#define SWAP_NONE UINT32_MAX      /* "no slot": allocation failed */

struct swapmap {
    uint64_t *bits;      /* 1 = in use; bit i of word i/64 is slot i */
    uint32_t nslots;
    uint32_t nfree;
    uint32_t hint;       /* where the next search starts */
};

/* Words of bitmap nslots needs. */
#define SWAPMAP_WORDS(nslots) (((nslots) + 63) / 64)

/* All slots free. bits has SWAPMAP_WORDS(nslots) words. */
void     swapmap_init(struct swapmap *m, uint64_t *bits, uint32_t nslots);
/* n contiguous free slots, marked used: the first slot, or SWAP_NONE if
 * no run of n exists (n == 0 is SWAP_NONE too). */
uint32_t swapmap_alloc(struct swapmap *m, uint32_t n);
/* Frees [slot, slot + n). Returns 0, or -1 (and changes nothing) if any of
 * them is out of range or not in use: the caller panics. */
int      swapmap_free(struct swapmap *m, uint32_t slot, uint32_t n);
bool     swapmap_in_use(const struct swapmap *m, uint32_t slot);
/* The longest free run (what the largest possible swap-out can use). */
uint32_t swapmap_largest_free(const struct swapmap *m);
/* 0 if nfree agrees with the bitmap. */
int      swapmap_check(const struct swapmap *m);

#endif
