/*
 * Swap space: page slots on the block device (kernel/mm/swapspace.c),
 * shared by both memory managers; which slots are in use is the slot map's
 * business (swapmap.h). Slot n is the page at byte n * PAGE_SIZE of the
 * device. The "swap" spinlock guards the slot map; I/O runs unlocked.
 */
#ifndef FAULTLINE_SWAPSPACE_H
#define FAULTLINE_SWAPSPACE_H

#include "types.h"
#include "swapmap.h"
#include "blk.h"

/* Boot, after blk_init: sizes the slot map and prints one line. */
void     swap_init(void);
/* n contiguous slots, or SWAP_NONE when the device is full (or absent). */
uint32_t swap_alloc(uint32_t n);
void     swap_free(uint32_t slot, uint32_t n);      /* panics on a bad free */
void     swap_usage(uint64_t *total, uint64_t *used);
/* pc=daemon: from now on a dead page's slot is handed to the PD manager,
 * which frees the waiting ones with swap_reap_dead() (returns how many).
 * Waiting slots count as free, and an allocation that finds the device
 * full frees them itself first, so the hand-over never makes the device
 * look fuller than it is. */
void     swap_defer_dead(void);
uint32_t swap_reap_dead(void);
uint64_t swap_free_slots(void);

/* One page between a frame and a slot; sleeps. 0 or -EIO. */
int  swap_read(uint32_t slot, paddr_t pa);
int  swap_write(uint32_t slot, paddr_t pa);
/* The same, started only: wait with blk_wait(req). For moving a whole
 * process with many requests in flight. */
int  swap_start(struct blk_req *req, uint32_t slot, paddr_t pa, bool write);

#endif
