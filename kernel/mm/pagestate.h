/*
 * The page-state machine: which leaf state (mmu.h) an event takes a user
 * page to. Pure, so it is host tested (tests/host/test_pagestate.c) as the
 * clock is; the kernel checks the transitions of pages in transit
 * (transit.c) against it, where a wrong one would lose a page.
 *
 *                 fill (zeros, origin)
 *   EMPTY ---------------------------------------+
 *   DISCARDED -----------------------------------+
 *                                                v
 *   SWAPPED --read begins--> INCOMING --read ok--> PRESENT <--reveal-- HIDDEN
 *      ^   <--read failed--               PRESENT --hide------------>  HIDDEN
 *      |                                  PRESENT/HIDDEN --drop clean--> DISCARDED
 *      +----write ok---- OUTGOING <--write begins-- PRESENT/HIDDEN (dirty)
 *                        OUTGOING --write failed--> PRESENT
 *
 * INCOMING and OUTGOING are the pages in transit: the device is reading
 * or writing the page with no space lock held, its frame pinned. Nothing
 * but the transit's end leaves them; whoever meets one waits for that
 * end (a fault lets go of its space's lock first: FAULT_RETRY). Any other
 * state may be unmapped (back to EMPTY: munmap, exit).
 */
#ifndef FAULTLINE_PAGESTATE_H
#define FAULTLINE_PAGESTATE_H

#include "mmu.h"

enum page_event {
    PE_FILL,          /* filled from its origin in the fault, lock held */
    PE_READ_BEGIN,    /* a page-in starts */
    PE_READ_DONE,
    PE_READ_FAILED,
    PE_HIDE,          /* the clock (refbits=sw) or vmctl hides it */
    PE_REVEAL,        /* a minor fault */
    PE_DROP_CLEAN,    /* evicted with no write: its origin has it */
    PE_WRITE_BEGIN,   /* a page-out starts */
    PE_WRITE_DONE,
    PE_WRITE_FAILED,
    PE_UNMAP,         /* munmap, exit, exec: the entry is given back */
};

#define PAGESTATE_INVALID (-1)

/* The state event ev takes a page in state from to, or PAGESTATE_INVALID
 * if ev cannot happen in that state. */
int pagestate_next(enum leaf_state from, enum page_event ev);

/* Whether a page in state s is on its way to or from the device. */
static inline bool pagestate_in_transit(enum leaf_state s)
{
    return s == LEAF_INCOMING || s == LEAF_OUTGOING;
}

#endif
