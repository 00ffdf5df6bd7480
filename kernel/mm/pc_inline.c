/*
 * pc=inline: page control in the fault path, as 4BSD's pageout ran when
 * memory ran short, but in the faulting thread itself. A fault that finds
 * no free frame takes the clock's victim: a clean page is dropped at once
 * and its frame is the room; a dirty one is started on its way to the
 * device (OUTGOING, frame pinned) and the fault, its own lock let go,
 * waits for that write and retries.
 */
#include "pc.h"
#include "mm.h"
#include "transit.h"
#include "proc.h"
#include "vmstat.h"
#include <faultline/errno.h>

static int inline_make_room(struct aspace *self)
{
    (void)self;
    int rc = -ENOMEM;
    for (int tries = 0; tries < RECLAIM_TRIES; tries++) {
        struct aspace *as;
        vaddr_t va;
        bool mine, busy;
        paddr_t pa = paging_choose_victim(&as, &va, &mine, &busy);
        if (!pa)
            return busy ? -EAGAIN : -ENOMEM;   /* busy: the rest are in use: wait_room */
        rc = mm_evict_begin(as, mmu_leaf(as->root, va, false), pa);
        if (!mine)
            sleeplock_release(&as->lock);
        if (rc == 0) {
            vm_count(VM_RECLAIMS);      /* dropped clean: the frame is free */
            return 0;
        }
        if (rc == 1)
            return -EAGAIN;   /* being written out: wait_room waits, no lock held */
        if (rc == -ENOSPC)
            return rc;        /* every dirty page would need a slot */
    }
    return rc;
}

/* Our own page-out, if we started one: when it ends, its frame is free.
 * Otherwise every page that could go belongs to a process in the middle
 * of its own fault (often waiting on the device): let them finish rather
 * than call memory exhausted, but not for ever: then the fault takes a
 * frame from the reserve (mm_alloc_frame, starved). */
static int inline_wait_room(struct aspace *as, uint32_t waits)
{
    (void)as;
    if (transit_out_pending()) {
        int rc = transit_finish_out();
        if (rc == 0)
            vm_count(VM_RECLAIMS);
        return rc;
    }
    if (waits > RECLAIM_BUSY_WAITS)
        return -ENOMEM;       /* even the reserve is gone */
    if (waits < RECLAIM_BUSY_WAITS)
        yield();              /* at the limit: retry at once, starved */
    return 0;
}

/* Inline page control frees only when a fault finds no frame, so a
 * shortage needs no action here: it is counted (vmstat low_water,
 * high_water), which shows how often a page daemon would have been woken. */
static void inline_water(enum water_event ev)
{
    if (ev == WATER_LOW || ev == WATER_HIGH)
        vm_count(ev == WATER_LOW ? VM_LOW_WATER : VM_HIGH_WATER);
}

const struct pc_ops pc_inline_ops = {
    .name = "inline",
    .make_room = inline_make_room,
    .wait_room = inline_wait_room,
    .water = inline_water,
};

const struct pc_ops *pc = &pc_inline_ops;
