/*
 * Choosing the memory manager at boot, and what both managers share:
 * getting a frame for a fault (making room when there is none) and
 * evicting one page. The managers themselves are mm_paging.c (mm=paging)
 * and mm_swap.c (mm=swap).
 */
#include "mm.h"
#include "frame.h"
#include "swapspace.h"
#include "pdmap.h"
#include "transit.h"
#include "pc.h"
#include "param.h"
#include "vmstat.h"
#include "meter.h"
#include "pcmeter.h"
#include <faultline/errno.h>

const struct mm_ops *mm = &paging_ops;

void mm_init(void)
{
    mm = params.mm == MM_SWAP ? &swap_ops : &paging_ops;
    /* The parser refuses pc=daemon with mm=swap. */
    pc = params.pc == PC_DAEMON ? &pc_daemon_ops : &pc_inline_ops;
    pcmeters_enabled = params.pcmeters == PCMETERS_ON;
    swap_init();
    pdmap_init();
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

paddr_t mm_alloc_frame_slow(struct aspace *as, vaddr_t va, int *err, bool starved, bool *zeroed)
{
    for (;;) {
        paddr_t pa = frame_alloc_user_keeping(as, va >> PAGE_SHIFT, USER_FRAME_RESERVE, zeroed);
        if (pa)
            return pa;
        int rc = mm->make_room(as);
        if (rc == -EAGAIN && starved) {
            /* Waited out every busy owner once already: the reserve
             * rather than memory exhausted (which killed a process with
             * the swap space nearly empty; found by fuzz). */
            pa = frame_alloc_user_keeping(as, va >> PAGE_SHIFT, STARVED_FRAME_RESERVE, zeroed);
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
        paddr_t pa = mm_alloc_frame(as, va, err, waits >= RECLAIM_BUSY_WAITS, NULL);
        if (pa || *err != -EAGAIN)
            return pa;
        if ((*err = mm->wait_room(as, waits)) != 0)
            return 0;
    }
}

/* Takes the page out of leaf and every TLB: a clean one is dropped and
 * its frame freed (false); a dirty one is left mapped nowhere, its
 * rights in *prot (true), for the caller to write out. */
static bool evict_take(struct aspace *as, void *leaf, paddr_t pa, unsigned *prot)
{
    struct leaf_info li;
    mmu_leaf_read(leaf, &li);
    *prot = li.prot;
    unsigned bits = mmu_leaf_take(leaf);
    /* After this no hart can reach the frame: a write that got in before
     * the take set the dirty bit we now hold. */
    aspace_shootdown(as);
    if (!(bits & MMU_DIRTY) && !frame_is_dirty(pa)) {
        /* Its origin (zeros, the initrd) still has what it holds. */
        mmu_leaf_set_discarded(leaf);
        as_count(&as->resident, -1);
        frame_free(pa);
        return false;
    }
    return true;
}

int mm_evict_handoff(struct aspace *as, void *leaf, paddr_t pa, unsigned rec)
{
    unsigned prot;
    if (!evict_take(as, leaf, pa, &prot))
        return 0;
    transit_handoff_out(rec, as, leaf, pa, prot);
    return 1;
}

int mm_evict_begin(struct aspace *as, void *leaf, paddr_t pa)
{
    unsigned prot;
    if (!evict_take(as, leaf, pa, &prot))
        return 0;
    int rc = transit_begin_out(as, leaf, pa, prot);
    if (rc) {
        mmu_leaf_set_tracked(leaf, pa, prot, true);
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
