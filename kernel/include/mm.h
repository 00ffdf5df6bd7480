/*
 * The memory manager, chosen at boot with mm=swap|paging. Both sit behind
 * one ops table over the shared core map, the same page tables and the
 * same swap space; what differs is who decides which memory to give back
 * when a fault finds no free frame, and whether a process runs while part
 * of it is on the device.
 *
 *   mm=paging (kernel/mm/mm_paging.c): BSD style. Page by page, global clock
 *     replacement; the fault handler itself evicts (pc=inline).
 *   mm=swap (kernel/mm/mm_swap.c): V7 style. Whole processes go out and
 *     come in; a swapper thread decides who.
 *
 * The fault dispatcher (fault.c) is common: it fills a page from its
 * origin (zero, the initrd) or from its swap slot, whichever manager runs.
 */
#ifndef FAULTLINE_MM_H
#define FAULTLINE_MM_H

#include "types.h"
#include "aspace.h"
#include "frame.h"

struct proc;

struct mm_ops {
    const char *name;
    /* Image pages faulted in on first touch (paging) rather than all
     * loaded at exec (swap). */
    bool demand_image;
    /* From the boot thread: kernel threads the manager needs. */
    void (*start)(void);
    /* A fault in `as` (its lock held) found no free frame: make one free.
     * 0 (try again), -ENOMEM (nothing can be freed), -EBUSY (every page
     * that could go belongs to a process busy in its own fault, for as
     * long as it waited: the fault may dip into the reserve), -ENOSPC (the
     * swap device is full), -EIO (writing a page out failed). */
    int  (*make_room)(struct aspace *as);
    /* vmctl(FL_VMCTL_SWAPOUT): the caller's process out and back in.
     * NULL where the manager does not move whole processes. */
    int  (*swap_out_self)(void);
    /* The most pages one process may ever have or be promised, where a
     * process runs only wholly in memory (mm=swap); NULL: no bound but
     * memory and swap together (paging runs a process partly out). */
    uint64_t (*process_pages_max)(void);
};

extern const struct mm_ops *mm;
extern const struct mm_ops paging_ops, swap_ops;

void mm_init(void);                   /* picks the ops from params, calls init */
void mm_start(void);
const char *mm_name(void);
static inline bool mm_pages_on_demand(void) { return mm->demand_image; }

/* A user frame for page va of as (lock held), making room if needed
 * (*made_room then true: the caller's view of as may be stale). 0 and
 * *err = -errno when none could be had. */
paddr_t mm_alloc_frame_slow(struct aspace *as, vaddr_t va, int *err, bool *made_room);
static inline paddr_t mm_alloc_frame(struct aspace *as, vaddr_t va, int *err, bool *made_room)
{
    /* Inline: the fault path's common case is a free frame at hand. */
    paddr_t pa = frame_alloc_user(as, va >> PAGE_SHIFT);
    if (pa) {
        *made_room = false;
        return pa;
    }
    return mm_alloc_frame_slow(as, va, err, made_room);
}

/* Evicts the page in leaf of as (its lock held, which keeps the page where
 * it is) to swap or, if it is clean, drops it and frees the frame. Shared
 * by the paging clock and vmctl. 0, -ENOSPC or -EIO (the page then stays). */
int  mm_evict_page(struct aspace *as, void *leaf, paddr_t pa);

/* Promise capacity beyond free frames, for commit_pages: both managers
 * can back a promised page with a swap slot. */
uint64_t mm_commit_extra(void);
/* Whether one process may be `pages` pages in all (image, heap, mmap,
 * promised or not): false only where it could never be wholly in memory
 * at once, which mm=swap needs to run it. */
bool mm_process_fits(uint64_t pages);

long sys_vmctl(uint64_t op, uint64_t addr, uint64_t len);

#endif
