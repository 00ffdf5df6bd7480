/*
 * Page control: when and how pages are freed and written out, apart from
 * replacement, which only says which page (mm_paging.c over
 * clock_replace.c). Chosen at boot with pc=:
 *
 *   pc=inline (pc_inline.c): the fault that finds no free frame runs the
 *     clock itself, starts the victim's write and waits for it with no
 *     space lock held (transit.h), then retries.
 *   pc=daemon (pc_daemon.c): a core manager and a paging-device manager,
 *     two system processes, keep a free list the fault only takes from.
 *
 * Only mm=paging has page control; mm=swap moves whole processes.
 */
#ifndef FAULTLINE_PC_H
#define FAULTLINE_PC_H

#include "aspace.h"
#include "coremap.h"

struct pc_ops {
    const char *name;
    /* As mm_ops.make_room and wait_room, for mm=paging. */
    int (*make_room)(struct aspace *as);
    int (*wait_room)(struct aspace *as, uint32_t waits);
    /* The frame allocator's water marks (frames_set_water): free frames
     * fell to the low mark, or are back at the high one. Called from the
     * allocating or freeing thread, no lock held; it must not sleep. A
     * page daemon wakes its core manager here; NULL = not wanted. */
    void (*water)(enum water_event ev);
    /* From mm_start: sets the allocator's water marks (low and high are
     * mm=paging's defaults) and starts whatever threads page control
     * has. NULL: the defaults, no threads. */
    void (*start)(uint32_t low, uint32_t high);
};

/* pd=: the paging device's oldest record is free to reclaim (its page
 * died, or was moved and nobody reads it): wakes the paging-device
 * manager to free it (pdmap.c). Any context: with a spinlock held it only
 * leaves a flag the manager sees at its next batch. */
void pc_daemon_pd_kick(void);

extern const struct pc_ops *pc;
extern const struct pc_ops pc_inline_ops, pc_daemon_ops;

/* Replacement (mm_paging.c): runs the clock to a victim frame. Its owner's
 * space comes back locked (*mine: it already was, by this thread), the
 * page at *va. 0 if none: *busy then says whether pages were passed over
 * only because their spaces were in use. */
paddr_t paging_choose_victim(struct aspace **owner, vaddr_t *va, bool *mine, bool *busy);

#endif
