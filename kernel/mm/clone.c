/*
 * fork's copy of an address space: every page the parent has, wherever it
 * is (in memory, hidden, on the swap device), becomes the child's own.
 */
#include "aspace.h"
#include "frame.h"
#include "mm.h"
#include "swapspace.h"
#include "transit.h"
#include "pagestate.h"
#include "kstring.h"
#include <arch/arch.h>
#include <faultline/errno.h>

struct clone_ctx {
    struct aspace *src, *dst;
    int rc;
    /* The last page's child entry and region: the next page is mostly in
     * the same table and region (mmu_leaf_near), no walk or search. */
    void *dleaf;
    vaddr_t dleaf_va;
    struct region *r;
};

static void *child_leaf(struct clone_ctx *cc, vaddr_t va)
{
    void *dleaf = cc->dleaf ? mmu_leaf_near(cc->dleaf, cc->dleaf_va, va) : NULL;
    if (!dleaf)
        dleaf = mmu_leaf(cc->dst->root, va, true);
    if (dleaf) {
        cc->dleaf = dleaf;
        cc->dleaf_va = va;
    }
    return dleaf;
}

static struct region *child_region(struct clone_ctx *cc, vaddr_t va)
{
    if (!cc->r || va < cc->r->start || va >= cc->r->end)
        cc->r = aspace_find_region(cc->dst, va);
    return cc->r;
}

/* The parent's page (present, hidden or swapped) written to a new slot that
 * becomes the child's. A swapped page passes through a kernel frame. */
static int copy_leaf_to_swap(struct aspace *dst, void *leaf, void *dleaf)
{
    struct leaf_info li;
    enum leaf_state st = mmu_leaf_read(leaf, &li);
    uint32_t slot = swap_alloc(1);
    if (slot == SWAP_NONE)
        return -ENOSPC;
    int rc;
    if (st == LEAF_SWAPPED) {
        paddr_t bounce = frame_alloc(FRAME_KERNEL);
        rc = bounce ? swap_read((uint32_t)li.slot, bounce) : -ENOMEM;
        if (!rc)
            rc = swap_write(slot, bounce);
        if (bounce)
            frame_free(bounce);
    } else {
        rc = swap_write(slot, li.pa);
    }
    if (rc) {
        swap_free(slot, 1);
        return rc;
    }
    mmu_leaf_set_swapped(dleaf, slot);
    dst->swapped++;
    return 0;
}

/* Copies one page of the parent into the child, wherever it is now. The
 * child's frame comes first: getting it may evict a parent page (the
 * parent's lock is ours), so the parent's entry is read only after. */
static void copy_leaf(vaddr_t va, void *leaf, void *arg)
{
    struct clone_ctx *cc = arg;
    if (cc->rc)
        return;
    struct leaf_info li;
    void *dleaf = child_leaf(cc, va);
    if (!dleaf) {
        cc->rc = -ENOMEM;
        return;
    }
    /* A page of the parent in transit ends it without the parent's
     * lock, which we hold: wait for it here. */
    if (pagestate_in_transit(mmu_leaf_read(leaf, NULL)))
        transit_wait(leaf);
    enum leaf_state st = mmu_leaf_read(leaf, &li);
    if (st == LEAF_DISCARDED) {
        mmu_leaf_set_discarded(dleaf);      /* same origin, nothing to copy */
        return;
    }
    if (st == LEAF_PRESENT && maps_zero_frame(&li)) {
        mmu_leaf_set(dleaf, li.pa, li.prot);   /* shared, read-only, still a promise */
        return;
    }
    struct region *r = child_region(cc, va);
    if (!r) {
        cc->rc = -EFAULT;
        return;
    }
    int err;
    /* Nothing else holds what the child's frame will: dirty from the
     * start (a frame from the waits below is marked after the copy). */
    paddr_t copy = frame_alloc_user_dirty(cc->dst, va >> PAGE_SHIFT);
    bool marked = copy != 0;
    if (!copy && mm->fork_to_swap_when_full) {
        /* mm=swap with memory full: the child's copy of this page goes
         * straight to the device, as V7's fork built a child on swap when
         * it did not fit; it comes in with the rest of the child later. */
        cc->rc = copy_leaf_to_swap(cc->dst, leaf, dleaf);
        return;
    }
    if (!copy)
        copy = mm_alloc_frame_wait(cc->dst, va, &err);
    if (!copy) {
        cc->rc = err;
        return;
    }
    int rc = 0;
    /* Getting the frame may have begun a page-out of this very page. */
    if (pagestate_in_transit(mmu_leaf_read(leaf, NULL)))
        transit_wait(leaf);
    switch (mmu_leaf_read(leaf, &li)) {
    case LEAF_PRESENT:
    case LEAF_HIDDEN:
        copy_page((void *)PA_TO_KVA(copy), (const void *)PA_TO_KVA(li.pa));
        break;
    case LEAF_SWAPPED:
        rc = swap_read((uint32_t)li.slot, copy);
        break;
    case LEAF_INCOMING:
    case LEAF_OUTGOING:             /* waited for above; only we begin one here */
    case LEAF_DISCARDED:
    case LEAF_EMPTY:
        /* Evicted clean while the frame was found: same origin. */
        mmu_leaf_set_discarded(dleaf);
        frame_free(copy);
        return;
    }
    if (rc) {
        frame_free(copy);
        cc->rc = rc;
        return;
    }
    if (!marked)
        frame_set_dirty(copy, true);
    mmu_leaf_set_tracked(dleaf, copy, r->prot | PROT_U, false);
    cc->dst->resident++;
}

int aspace_clone(struct aspace *src, struct aspace **out)
{
    struct aspace *dst = aspace_create();
    if (!dst)
        return -EAGAIN;
    /* Parent before child; nobody else can wait for the new child's lock,
     * so it may nest in the parent's, of the same rank (lockrank.h). */
    sleeplock_acquire(&src->lock);
    sleeplock_acquire_fresh(&dst->lock);
    /* The regions in use only: the array has room for many more. */
    memcpy(dst->regions, src->regions, src->nregions * sizeof dst->regions[0]);
    dst->nregions = src->nregions;
    dst->heap_start = src->heap_start;
    dst->brk = src->brk;
    /* The child is as big as the parent is now, which runs: it needs no
     * room to grow beyond that (aspace_may_grow), only to fit at all. */
    int rc = mm_process_fits(aspace_pages(src)) ? commit_pages(src->lazy_pages) : -ENOMEM;
    struct clone_ctx cc = { .src = src, .dst = dst, .rc = rc };
    if (!cc.rc)
        dst->lazy_pages = src->lazy_pages;
    /* Only the regions' pages: the walk costs what is mapped, not what
     * the page tables could hold. */
    struct mmu_range ranges[ASPACE_MAX_REGIONS];
    int n = aspace_ranges(src, ranges);
    mmu_for_each_user_leaf_in(src->root, ranges, n, copy_leaf, &cc);
    sleeplock_release(&dst->lock);
    sleeplock_release(&src->lock);
    if (cc.rc) {
        aspace_destroy(dst);
        return cc.rc;
    }
    *out = dst;
    return 0;
}
