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
/* The same for a frame the caller has left all zero (a page table whose
 * entries it cleared): it joins the zeroed frames, so the next
 * frame_alloc_zeroed that takes it writes nothing. */
void    frame_free_zeroed(paddr_t pa);
/* frame_free of pa[0..n) in one hold of the frames lock: exit frees a
 * process's pages in batches. */
void    frame_free_many(const paddr_t *pa, int n);
/* A user frame (FRAME_USER, owner and page recorded). The replacement
 * clock takes a user frame only once the owner's entry for the page maps
 * it, so a frame filled under the owner's lock needs no pin; one filled or
 * emptied by the device with no lock held is pinned (frame_pin). Fails (0) while free frames
 * are at or below USER_FRAME_RESERVE, which keeps frames for page tables
 * and kernel stacks when user pages have filled memory. */
paddr_t frame_alloc_user(void *owner, uint64_t vpn);
/* The same, marked dirty from the start (FRAME_F_DIRTY): for a frame
 * that will hold what nothing else does, fork's copy, without a second
 * hold of the frames lock to say so. */
paddr_t frame_alloc_user_dirty(void *owner, uint64_t vpn);
/* Water marks of free frames for page control (coremap_water): hook is
 * called, with no lock held, when an allocation takes free frames down to
 * low and when frees bring them back up to high. */
void frames_set_water(uint32_t low, uint32_t high, void (*hook)(enum water_event));
/* Frames the allocator was given at boot. */
uint32_t frames_managed(void);
/* The same, leaving `keep` frames free: a fault that found every page's
 * owner busy may go below USER_FRAME_RESERVE (mm.c). zeroed non-NULL:
 * a frame from the zeroed list first, and *zeroed says whether it was
 * one (a demand-zero fill then need not zero it); NULL: zeroed frames
 * last. */
paddr_t frame_alloc_user_keeping(void *owner, uint64_t vpn, uint64_t keep, bool *zeroed);
/* pc=daemon's idle work: zeroes one free frame of unknown contents and
 * puts it on the zeroed list. false if there is none. */
bool    frames_zero_one(void);
uint64_t frames_zeroed_count(void);    /* free frames known to be zeroed */
/* The water hook hears WATER_ZEROED_LOW when a user allocation takes the
 * zeroed frames below n (0: never). */
void    frames_set_zeroed_low(uint32_t n);
/* The physical address of core-map record index. */
paddr_t frame_pa_of(uint32_t index);
/* FRAME_F_DIRTY: the frame differs from every copy elsewhere (its page was
 * written through the direct map, swapped in, or copied by fork), so it
 * must be written out before it can be dropped, whatever the PTE says. */
void    frame_set_dirty(paddr_t pa, bool dirty);
/* A kernel frame lent to user space by a subsystem (kernel/ulf grants
 * frames to fault handlers): tag names the subsystem, index its record.
 * Replacement never takes a FRAME_KERNEL frame; a space that maps one
 * asks frame_has_tag before it frees what it unmaps. */
void    frame_set_tag(paddr_t pa, const void *tag, uint64_t index);
bool    frame_has_tag(paddr_t pa, const void *tag, uint64_t *index);
bool    frame_is_dirty(paddr_t pa);
/* A pinned user frame is passed over by replacement and may not be freed
 * (frame_free panics): its page is in transit (kernel/mm/transit.h). */
void    frame_pin(paddr_t pa);
void    frame_unpin(paddr_t pa);
/* frame_unpin, marking the frame dirty first if `dirty`, without the
 * frames lock: while its page is in transit nobody else writes its flags.
 * One look-up of the frame for both (a page-in's end, which is metered). */
void    frame_unpin_dirty(paddr_t pa, bool dirty);

struct clock_hand;
enum clock_verdict;
/* Runs the replacement clock over the core map under the frames lock; the
 * victim comes back with its owner and page (examine locked the owner's
 * space, which keeps the page there). 0 if none. */
paddr_t frame_choose_victim(struct clock_hand *h,
                            enum clock_verdict (*examine)(struct frame *f, uint32_t index, void *ctx),
                            void *ctx, void **owner, uint64_t *vpn);

uint64_t frames_free_count(void);
uint64_t frames_user_count(void);      /* FRAME_USER records: walks the core map */
/* Free and user frames together, as one consistent count (walks the core
 * map): what user pages could have if every process were out. */
uint64_t frames_free_plus_user_count(void);
uint64_t frames_total_count(void);

#endif
