/*
 * Pages in transit: a page being read in from its swap slot (INCOMING) or
 * written out to one (OUTGOING) while no address-space lock is held, its
 * frame pinned so that replacement passes it over and nobody frees it
 * (pagestate.h has the state machine).
 *
 * A transit belongs to the thread that began it (one at a time per
 * thread) and only that thread ends it. Ending one takes no space lock:
 * the entry, the counters and the frame change under the "transit"
 * spinlock alone. So anyone may wait for a transit to end, holding a
 * space lock or not, and never deadlock with its owner. A fault that
 * meets one lets go of its lock first and then retries (FAULT_RETRY).
 */
#ifndef FAULTLINE_TRANSIT_H
#define FAULTLINE_TRANSIT_H

#include "aspace.h"

/* as->lock held, leaf SWAPPED with slot: the page becomes INCOMING into
 * frame pa (a new user frame, now pinned), counted resident from here
 * on. The caller then calls transit_finish_in, which lets go of the lock
 * (unless no one else can reach as) before the read. */
void transit_begin_in(struct aspace *as, void *leaf, paddr_t pa, uint32_t slot, unsigned prot,
                      uint64_t meter_start, uint64_t meter_off);
/* Lets go of `held` (the space's lock, unless NULL: no one else can reach
 * the space), then reads the caller's page in and ends its transit:
 * PRESENT (0), or, if the device failed, SWAPPED again with the frame
 * freed (-EIO). */
int  transit_finish_in(struct sleeplock *held);

/* as->lock held, the page taken from leaf and every TLB shot down, its
 * frame pa dirty: gives it a slot and starts writing it there. The page
 * is OUTGOING (counted swapped from here on), pa pinned. 0 (started:
 * transit_finish_out ends it), or -ENOSPC / -EIO with nothing changed
 * (the caller maps the page back). */
int  transit_begin_out(struct aspace *as, void *leaf, paddr_t pa, unsigned prot);
/* Whether the caller has a page-out to finish. */
bool transit_out_pending(void);
/* Waits for the caller's page-out and ends it: SWAPPED, frame freed
 * (0); or, if the write failed, PRESENT again (-EIO). */
int  transit_finish_out(void);

/* pc=daemon's write-behind (pc_daemon.c), in TRANSIT_HANDOFFS records
 * that belong to no thread: the core manager begins a page-out and the
 * paging-device manager gives it a slot, writes it and ends it.
 *
 * as->lock held, the page taken from leaf and every TLB shot down, its
 * frame pa dirty: the page becomes OUTGOING in record rec (free until
 * now), its frame pinned, with no slot yet. */
void transit_handoff_out(unsigned rec, struct aspace *as, void *leaf, paddr_t pa, unsigned prot);
/* A slot for rec's page and its write started: 0 (end it with
 * transit_handoff_finish), or -ENOSPC / -EIO with the transit already
 * ended: the page is PRESENT again, rec free. */
int  transit_handoff_start(unsigned rec);
/* Waits for rec's write and ends it: SWAPPED, frame freed (0); or
 * PRESENT again (-EIO). rec is free again either way. */
int  transit_handoff_finish(unsigned rec);

/* Returns once leaf is not in transit (at once if it is not). */
void transit_wait(const void *leaf);

/* Adds d to a space's page counter: counters change under the space's
 * lock, and at the end of a transit without it. */
static inline void as_count(uint64_t *counter, int64_t d)
{
    __atomic_fetch_add(counter, (uint64_t)d, __ATOMIC_RELAXED);
}

#endif
