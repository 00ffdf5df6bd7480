/* The page-state machine (pagestate.h): one switch, no side effects. */
#include "pagestate.h"

static bool mapped(enum leaf_state s)
{
    return s == LEAF_PRESENT || s == LEAF_HIDDEN;
}

int pagestate_next(enum leaf_state from, enum page_event ev)
{
    switch (ev) {
    case PE_FILL:
        return from == LEAF_EMPTY || from == LEAF_DISCARDED ? LEAF_PRESENT : PAGESTATE_INVALID;
    case PE_READ_BEGIN:
        return from == LEAF_SWAPPED ? LEAF_INCOMING : PAGESTATE_INVALID;
    case PE_READ_DONE:
        return from == LEAF_INCOMING ? LEAF_PRESENT : PAGESTATE_INVALID;
    case PE_READ_FAILED:
        /* The slot still holds the only copy. */
        return from == LEAF_INCOMING ? LEAF_SWAPPED : PAGESTATE_INVALID;
    case PE_HIDE:
        return from == LEAF_PRESENT ? LEAF_HIDDEN : PAGESTATE_INVALID;
    case PE_REVEAL:
        return from == LEAF_HIDDEN ? LEAF_PRESENT : PAGESTATE_INVALID;
    case PE_DROP_CLEAN:
        return mapped(from) ? LEAF_DISCARDED : PAGESTATE_INVALID;
    case PE_WRITE_BEGIN:
        return mapped(from) ? LEAF_OUTGOING : PAGESTATE_INVALID;
    case PE_WRITE_DONE:
        return from == LEAF_OUTGOING ? LEAF_SWAPPED : PAGESTATE_INVALID;
    case PE_WRITE_FAILED:
        /* The frame still holds the only copy: map it again. */
        return from == LEAF_OUTGOING ? LEAF_PRESENT : PAGESTATE_INVALID;
    case PE_UNMAP:
        return pagestate_in_transit(from) ? PAGESTATE_INVALID : LEAF_EMPTY;
    }
    return PAGESTATE_INVALID;
}
