/*
 * The second-chance clock over the core map.
 *
 * The hand is an index into the frame records. Each step looks at one
 * record and moves the hand on (wrapping at nframes); only user frames
 * without pins are candidates, so kernel data, page tables, free and
 * reserved frames, and frames with I/O in flight are passed over without
 * asking the callback. Whether a candidate was referenced, and whether its
 * owner can be locked, is the callback's business (clock_replace.h).
 *
 * Two full turns bound the sweep: a frame given a second chance on the
 * first turn has its bit clear when the hand comes round again, so if no
 * victim appears within 2 * nframes steps, none can be had right now
 * (everything is pinned, busy, or not a user frame).
 *
 * Pure algorithm, compiled both into the kernel and into the host tests.
 */
#include "clock_replace.h"

/* Turns of the hand before giving up; see above for why two suffice. */
#define CLOCK_MAX_TURNS 2u

static bool clock_candidate(const struct frame *f)
{
    return f->state == FRAME_USER && f->pins == 0;
}

static uint32_t clock_advance(uint32_t index, uint32_t nframes)
{
    return index + 1 == nframes ? 0 : index + 1;
}

uint32_t clock_select(struct coremap *cm, struct clock_hand *h, clock_examine_fn examine, void *ctx)
{
    uint32_t nframes = cm->nframes;
    if (nframes == 0)
        return FRAME_NONE;
    /* a hand left out of range (a fresh struct, a smaller map) starts over */
    uint32_t hand = h->hand < nframes ? h->hand : 0;
    uint64_t budget = (uint64_t)CLOCK_MAX_TURNS * nframes;

    for (uint64_t step = 0; step < budget; step++) {
        uint32_t index = hand;
        struct frame *f = &cm->frames[index];
        hand = clock_advance(hand, nframes);
        /* every record the hand passes counts, candidate or not: that is
         * the work a sweep costs (vmstat clock_scans) */
        h->scanned++;
        if (!clock_candidate(f))
            continue;
        /* CLOCK_SECOND_CHANCE and CLOCK_BUSY both mean "go on"; any value
         * the callback should not have returned is treated like BUSY */
        if (examine(f, index, ctx) == CLOCK_TAKE) {
            h->hand = hand;
            return index;
        }
    }
    /* two whole turns: the hand is back where it started */
    h->hand = hand;
    return FRAME_NONE;
}
