/*
 * Global page replacement: the clock algorithm over the core map, as in
 * Berkeley UNIX. The hand sweeps frame records in order; a user frame that
 * was referenced since the hand last passed gets a second chance (its
 * reference bit is cleared), one that was not is the victim.
 *
 * Pure algorithm: how a reference bit is tested and cleared (hardware
 * accessed bit, or a simulated one) and whether a frame's owner can be
 * locked are the caller's, through the examine callback. Unit tested on
 * the host; kernel/mm/mm_paging.c calls it under the frames lock.
 */
#ifndef FAULTLINE_CLOCK_REPLACE_H
#define FAULTLINE_CLOCK_REPLACE_H

#include "coremap.h"

enum clock_verdict {
    CLOCK_TAKE,          /* not referenced: this is the victim */
    CLOCK_SECOND_CHANCE, /* was referenced; the callback cleared the bit */
    CLOCK_BUSY,          /* cannot be had now (owner locked, being freed): pass over */
};

struct clock_hand {
    uint32_t hand;       /* next record to look at */
    uint64_t scanned;    /* records looked at, ever (vmstat clock_scans) */
};

/* Only FRAME_USER frames without pins are offered to examine. */
typedef enum clock_verdict (*clock_examine_fn)(struct frame *f, uint32_t index, void *ctx);

/* Sweeps from the hand until examine says CLOCK_TAKE, looking at no more
 * than 2 * nframes records (two full turns: enough for every bit cleared
 * on the first to be seen clear on the second). Returns the victim's
 * index with the hand just past it, or FRAME_NONE. */
uint32_t clock_select(struct coremap *cm, struct clock_hand *h, clock_examine_fn examine, void *ctx);

#endif
