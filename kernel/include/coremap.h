/*
 * The core map: one record per physical frame of managed memory, the one
 * structure every memory manager (swap, paging, page daemon, user-level
 * pagers) reads and writes. Nobody keeps a private copy of frame state.
 *
 * This file is the pure algorithm (no locks, no zeroing, no address
 * translation), so it can be unit tested on the host. kernel/mm/frame.c wraps
 * it with the frames lock and the direct map.
 *
 * Frames are named by index (0 .. nframes-1) relative to base_pfn. Lists are
 * threaded through the records by index. A record is 32 bytes (under 1% of
 * the memory it describes).
 */
#ifndef FAULTLINE_COREMAP_H
#define FAULTLINE_COREMAP_H

#include "types.h"

#define FRAME_NONE UINT32_MAX     /* "no frame": end of list, allocation failure */

enum frame_state {
    FRAME_RESERVED = 0,   /* firmware, kernel image, DTB, initrd, outside mem= */
    FRAME_FREE,           /* on the free list */
    FRAME_KERNEL,         /* kernel data: stacks, core map, file pages */
    FRAME_PAGETABLE,      /* a page-table page */
    FRAME_USER,           /* mapped in a user address space */
};

/* frame flags */
#define FRAME_F_DIRTY       0x02  /* differs from its backing-store copy */
#define FRAME_F_REFERENCED  0x04  /* software reference bit */
#define FRAME_F_ZEROED      0x08  /* free and known to hold zeros (on the zeroed
                                     list: pc=daemon's core manager zeroed it
                                     in idle time); kept by the allocation that
                                     takes it, for its taker to read */

struct frame {
    uint8_t  state;       /* enum frame_state */
    uint8_t  flags;       /* FRAME_F_* */
    uint32_t pins;        /* >0: may not be reclaimed or freed: the page is in
                             transit (being read in or written out with no
                             space lock held, kernel/mm/transit.c) */
    uint32_t next;        /* list link (index) or FRAME_NONE */
    void    *owner;       /* struct aspace * for FRAME_USER; NULL otherwise */
    uint64_t vpn;         /* virtual page number in owner (FRAME_USER) */
};

struct coremap {
    struct frame *frames;
    pfn_t    base_pfn;    /* pfn of frames[0] */
    uint32_t nframes;     /* records in frames[] */
    uint32_t free_head;   /* LIFO free list: a just-freed frame is cache-warm */
    uint32_t zero_head;   /* LIFO list of free frames known to be zeroed */
    uint32_t nfree;       /* free frames on both lists */
    uint32_t nzero;       /* of which on the zeroed list */
    uint32_t nmanaged;    /* frames ever released to the allocator */
    /* Water marks (coremap_water): 0 and 0 = none set. */
    uint32_t low_water, high_water;
    bool     below_low;   /* fell to low_water and has not climbed to high_water */
};

/* What an allocation or free did to the water marks. */
enum water_event {
    WATER_NONE,
    WATER_LOW,    /* free frames fell to the low mark: time to free some ahead */
    WATER_HIGH,   /* they climbed back to the high mark: enough */
    WATER_ZEROED_LOW, /* a demand-zero fault took the zeroed frames down to
                         their mark (frames_set_zeroed_low): zero more */
};

/* All frames start FRAME_RESERVED. */
void coremap_init(struct coremap *cm, struct frame *records, pfn_t base_pfn, uint32_t nframes);

/* Sets the water marks (low < high; 0, 0 turns them off). */
void coremap_set_water(struct coremap *cm, uint32_t low, uint32_t high);

/* Called after each change of nfree: WATER_LOW once when free frames fall
 * to low_water, WATER_HIGH once when they are back at high_water, and
 * nothing in between, so a shortage is reported once, not on every
 * allocation (hysteresis). */
static inline enum water_event coremap_water(struct coremap *cm)
{
    if (!cm->high_water)
        return WATER_NONE;
    if (!cm->below_low) {
        if (cm->nfree > cm->low_water)
            return WATER_NONE;
        cm->below_low = true;
        return WATER_LOW;
    }
    if (cm->nfree < cm->high_water)
        return WATER_NONE;
    cm->below_low = false;
    return WATER_HIGH;
}

/* Hands frames [pfn_lo, pfn_hi) to the allocator (boot only). Frames outside
 * the map are ignored. Returns the number released. */
uint32_t coremap_release(struct coremap *cm, pfn_t pfn_lo, pfn_t pfn_hi);

/* Takes one free frame and gives it state `state` (not FREE/RESERVED).
 * Returns its pfn, or 0 if none is free (pfn 0 is never managed RAM).
 * Frames of unknown contents go first, zeroed ones only when no other is
 * left: a zeroed frame is worth more to a demand-zero fault. */
pfn_t coremap_alloc(struct coremap *cm, enum frame_state state);
/* The same, zeroed frames first; one that was zeroed keeps
 * FRAME_F_ZEROED in its flags. */
pfn_t coremap_alloc_zeroed(struct coremap *cm, enum frame_state state);
/* A user frame with its record filled in at once: owner, vpn and flags
 * (FRAME_F_ZEROED is not among them: *was_zeroed says whether it came
 * off the zeroed list). zeroed_first: as coremap_alloc_zeroed, else as
 * coremap_alloc. 0 if none is free. Inline: the demand-zero fault takes
 * its frame here, and the record is written once rather than reset and
 * then filled. */
static inline pfn_t coremap_alloc_user(struct coremap *cm, bool zeroed_first, void *owner,
                                       uint64_t vpn, uint8_t flags, bool *was_zeroed)
{
    bool zeroed = zeroed_first;
    uint32_t idx = zeroed ? cm->zero_head : cm->free_head;
    if (idx == FRAME_NONE) {
        zeroed = !zeroed;
        idx = zeroed ? cm->zero_head : cm->free_head;
        if (idx == FRAME_NONE)
            return 0;
    }
    struct frame *f = &cm->frames[idx];
    if (zeroed) {
        cm->zero_head = f->next;
        cm->nzero--;
    } else {
        cm->free_head = f->next;
    }
    cm->nfree--;
    f->state = FRAME_USER;
    f->flags = flags;
    f->pins = 0;
    f->next = FRAME_NONE;
    f->owner = owner;
    f->vpn = vpn;
    *was_zeroed = zeroed;
    return cm->base_pfn + idx;
}
/* Takes a free frame of unknown contents off its list (it stays FREE,
 * counted in nfree) so that the caller can zero it with no lock held; 0
 * if there is none. coremap_put_zeroed puts it on the zeroed list. */
pfn_t coremap_take_unzeroed(struct coremap *cm);
void  coremap_put_zeroed(struct coremap *cm, pfn_t pfn);

/* Returns a frame to the free list. Returns 0, or -1 if pfn is not in the
 * map, not allocated (double free), or pinned: the caller panics. */
int coremap_free(struct coremap *cm, pfn_t pfn);
/* The same for a frame its owner has left all zero (a page table whose
 * entries were all cleared): it goes on the zeroed list, so the next
 * zeroed-first allocation needs no zeroing. */
int coremap_free_zeroed(struct coremap *cm, pfn_t pfn);

/* The record of pfn, or NULL if pfn is outside the map. Inline: every
 * pin, unpin and dirty mark of a page-in looks a frame up. */
static inline struct frame *coremap_frame(struct coremap *cm, pfn_t pfn)
{
    if (pfn < cm->base_pfn || pfn - cm->base_pfn >= cm->nframes)
        return NULL;
    return &cm->frames[pfn - cm->base_pfn];
}

/* Counts frames in each state; returns 0 if the free lists and the states
 * agree (every FREE frame on one list exactly once, nothing else on them,
 * exactly the zeroed list's frames marked FRAME_F_ZEROED). A frame taken
 * by coremap_take_unzeroed and not put back fails the check. */
int coremap_check(const struct coremap *cm, uint32_t counts[5]);

#endif
