/*
 * Choosing the memory manager at boot, and what both managers share:
 * getting a frame for a fault (making room when there is none) and
 * evicting one page. The managers themselves are mm_paging.c (mm=paging)
 * and mm_swap.c (mm=swap).
 */
#include "mm.h"
#include "frame.h"
#include "swapspace.h"
#include "transit.h"
#include "pc.h"
#include "param.h"
#include "vmstat.h"
#include "meter.h"
#include <faultline/errno.h>

const struct mm_ops *mm = &paging_ops;

void mm_init(void)
{
    mm = params.mm == MM_SWAP ? &swap_ops : &paging_ops;
    /* pc=daemon is refused by the parser until it exists, so inline is
     * the one page control there is to choose. */
    pc = &pc_inline_ops;
    swap_init();
    zero_frame_init();
    mm->banner();
}

void mm_start(void)
{
    if (mm->start)
        mm->start();
}

const char *mm_name(void) { return mm->name; }

void mm_proc_init(struct proc *p)
{
    if (mm->proc_init)
        mm->proc_init(p);
}

paddr_t mm_alloc_frame_slow(struct aspace *as, vaddr_t va, int *err, bool starved)
{
    for (;;) {
        paddr_t pa = frame_alloc_user(as, va >> PAGE_SHIFT);
        if (pa)
            return pa;
        int rc = mm->make_room(as);
        if (rc == -EAGAIN && starved) {
            /* Waited out every busy owner once already: the reserve
             * rather than memory exhausted (which killed a process with
             * the swap space nearly empty; found by fuzz). */
            pa = frame_alloc_user_keeping(as, va >> PAGE_SHIFT, STARVED_FRAME_RESERVE);
            if (pa)
                return pa;
            rc = -ENOMEM;
        }
        if (rc) {
            *err = rc;
            return 0;
        }
    }
}

paddr_t mm_alloc_frame_wait(struct aspace *as, vaddr_t va, int *err)
{
    for (uint32_t waits = 0;; waits++) {
        paddr_t pa = mm_alloc_frame(as, va, err, waits >= RECLAIM_BUSY_WAITS);
        if (pa || *err != -EAGAIN)
            return pa;
        if ((*err = mm->wait_room(as, waits)) != 0)
            return 0;
    }
}

int mm_evict_begin(struct aspace *as, void *leaf, paddr_t pa)
{
    struct leaf_info li;
    mmu_leaf_read(leaf, &li);
    unsigned bits = mmu_leaf_take(leaf);
    /* After this no hart can reach the frame: a write that got in before
     * the take set the dirty bit we now hold. */
    aspace_shootdown(as);
    if (!(bits & MMU_DIRTY) && !frame_is_dirty(pa)) {
        /* Its origin (zeros, the initrd) still has what it holds. */
        mmu_leaf_set_discarded(leaf);
        as_count(&as->resident, -1);
        frame_free(pa);
        return 0;
    }
    int rc = transit_begin_out(as, leaf, pa, li.prot);
    if (rc) {
        mmu_leaf_set_tracked(leaf, pa, li.prot, true);
        return rc;
    }
    return 1;
}

int mm_evict_page(struct aspace *as, void *leaf, paddr_t pa)
{
    int rc = mm_evict_begin(as, leaf, pa);
    return rc == 1 ? transit_finish_out() : rc;
}

uint64_t mm_commit_extra(void)
{
    return swap_free_slots();
}

bool mm_process_fits(uint64_t pages)
{
    return !mm->process_pages_max || pages <= mm->process_pages_max();
}
