/*
 * Choosing the memory manager at boot, and what both managers share:
 * getting a frame for a fault (making room when there is none) and
 * evicting one page. The managers themselves are mm_paging.c (mm=paging)
 * and mm_swap.c (mm=swap).
 */
#include "mm.h"
#include "frame.h"
#include "swapspace.h"
#include "param.h"
#include "vmstat.h"
#include "meter.h"
#include "printk.h"
#include <faultline/errno.h>

const struct mm_ops *mm = &paging_ops;

void mm_init(void)
{
    mm = params.mm == MM_SWAP ? &swap_ops : &paging_ops;
    swap_init();
    kprintf("faultline: mm: %s%s\n", mm->name,
            params.mm == MM_PAGING ? (params.refbits == REFBITS_SW ?
                                      ", page control inline, software reference bits" :
                                      ", page control inline, hardware reference bits") : "");
}

void mm_start(void)
{
    if (mm->start)
        mm->start();
}

const char *mm_name(void) { return mm->name; }

paddr_t mm_alloc_frame_slow(struct aspace *as, vaddr_t va, int *err, bool *made_room)
{
    *made_room = false;
    for (;;) {
        paddr_t pa = frame_alloc_user(as, va >> PAGE_SHIFT);
        if (pa)
            return pa;
        int rc = mm->make_room(as);
        *made_room = true;
        if (rc == -EBUSY) {
            /* Every page that could go belonged to a process in its own
             * fault for as long as this one waited: on two harts the others
             * can keep their spaces locked, each paging its own pages in
             * and out and taking every frame it frees, and this fault
             * would starve. Take one from the reserve instead of calling
             * memory exhausted (which killed a process with the swap
             * space nearly empty; found by fuzz). */
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

int mm_evict_page(struct aspace *as, void *leaf, paddr_t pa)
{
    uint64_t off, start = meter_split_start(&off);
    struct leaf_info li;
    mmu_leaf_read(leaf, &li);
    unsigned bits = mmu_leaf_take(leaf);
    /* After this no hart can reach the frame: a write that got in before
     * the take set the dirty bit we now hold. */
    aspace_shootdown(as);
    if (!(bits & MMU_DIRTY) && !frame_is_dirty(pa)) {
        /* Its origin (zeros, the initrd) still has what it holds. */
        mmu_leaf_set_discarded(leaf);
    } else {
        uint32_t slot = swap_alloc(1);
        int rc = slot == SWAP_NONE ? -ENOSPC : swap_write(slot, pa);
        if (rc) {
            if (slot != SWAP_NONE)
                swap_free(slot, 1);
            mmu_leaf_set_tracked(leaf, pa, li.prot, true);
            return rc;
        }
        mmu_leaf_set_swapped(leaf, slot);
        as->swapped++;
        vm_count(VM_PAGEOUTS);
        meter_record_split(FL_METER_PAGEOUT, FL_METER_PAGE_WAIT, start, off);
    }
    as->resident--;
    frame_free(pa);
    return 0;
}

uint64_t mm_commit_extra(void)
{
    return swap_free_slots();
}

bool mm_process_fits(uint64_t pages)
{
    return !mm->process_pages_max || pages <= mm->process_pages_max();
}
