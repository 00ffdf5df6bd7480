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
    /* exec loads every image page while free memory allows (swap: a
     * process runs wholly in memory), rather than leave them to first
     * touch (paging). */
    bool load_image_at_exec;
    /* fork, with memory full, writes the child's copy of a page straight
     * to the swap device (swap: V7 built a child on swap when it did not
     * fit; it comes in whole later) rather than make room for it. */
    bool fork_to_swap_when_full;
    /* The boot banner line naming the manager and its settings. */
    void (*banner)(void);
    /* From the boot thread: kernel threads the manager needs. */
    void (*start)(void);
    /* A process slot taken for a new process: reset what the manager
     * keeps of it. NULL: nothing kept. */
    void (*proc_init)(struct proc *p);
    /* A fault in `as` (its lock held) found no free frame: make one free
     * without waiting for anyone. 0 (try again), -EAGAIN (none can be
     * had without waiting: the caller lets go of as->lock and calls
     * wait_room), -ENOMEM (nothing can be freed), -ENOSPC (the swap
     * device is full), -EIO (writing a page out failed). */
    int  (*make_room)(struct aspace *as);
    /* After make_room said -EAGAIN, with as->lock no longer held (or held
     * on a space no one else can reach yet: exec's new image): waits until
     * room may have been made. waits: how many times this fault already
     * waited. 0 (retry the fault; once waits reaches RECLAIM_BUSY_WAITS
     * the retry is starved, see mm_alloc_frame) or -ENOMEM (give up). */
    int  (*wait_room)(struct aspace *as, uint32_t waits);
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
void mm_proc_init(struct proc *p);

/* A user frame for page va of as (lock held), making room if it can be
 * made without waiting. 0 and *err = -errno when none could be had
 * (-EAGAIN: see mm_ops.make_room). starved: this fault already waited
 * RECLAIM_BUSY_WAITS times for owners busy in faults of their own; rather
 * than wait more it takes a frame from the reserve, leaving
 * STARVED_FRAME_RESERVE (on two harts the others can keep their spaces
 * locked, each paging its own pages and taking every frame it frees). */
/* zeroed: as frame_alloc_user_keeping's (NULL: the frame's contents do
 * not matter, it is about to be overwritten). */
paddr_t mm_alloc_frame_slow(struct aspace *as, vaddr_t va, int *err, bool starved, bool *zeroed);
static inline paddr_t mm_alloc_frame(struct aspace *as, vaddr_t va, int *err, bool starved,
                                     bool *zeroed)
{
    /* Inline: the fault path's common case is a free frame at hand. */
    paddr_t pa = frame_alloc_user_keeping(as, va >> PAGE_SHIFT, USER_FRAME_RESERVE, zeroed);
    if (pa)
        return pa;
    return mm_alloc_frame_slow(as, va, err, starved, zeroed);
}

/* Same, waiting for room when it must, with as->lock (and whatever else
 * the caller holds) kept: only for a space no one else can reach yet
 * (exec's new image, fork's child). Never -EAGAIN. */
paddr_t mm_alloc_frame_wait(struct aspace *as, vaddr_t va, int *err);

/* Starts evicting the page in leaf of as (its lock held, which keeps the
 * page where it is): a clean page is dropped and its frame freed (0); a
 * dirty one becomes OUTGOING, its write started (1: the caller ends it
 * with transit_finish_out, no lock needed). -ENOSPC or -EIO: the page
 * stays. */
int  mm_evict_begin(struct aspace *as, void *leaf, paddr_t pa);
/* The same for pc=daemon's core manager: a dirty page becomes OUTGOING
 * in hand-off record rec (transit.h), for the paging-device manager to
 * give a slot and write (1); a clean one is dropped (0). Never fails. */
int  mm_evict_handoff(struct aspace *as, void *leaf, paddr_t pa, unsigned rec);
/* The same, waiting for the write (vmctl: the caller's own pages, at its
 * request). 0, -ENOSPC or -EIO (the page then stays). */
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
