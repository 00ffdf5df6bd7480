/*
 * Growing and shrinking an address space: sbrk, anonymous mmap and munmap.
 * Pages are promised when the range is made (commit_pages) and created on
 * first touch by the fault dispatcher.
 */
#include "aspace.h"
#include "frame.h"
#include <arch/arch.h>
#include <faultline/errno.h>

static struct region *heap_region(struct aspace *as)
{
    for (int i = 0; i < as->nregions; i++)
        if (as->regions[i].kind == REGION_HEAP)
            return &as->regions[i];
    return NULL;
}

/* The heap grows up to the fixed limit below the mmap window, and never
 * into a region placed above it (a MAP_FIXED mapping may sit anywhere). */
static vaddr_t heap_limit(struct aspace *as, const struct region *heap)
{
    vaddr_t limit = USER_HEAP_LIMIT;
    for (int i = 0; i < as->nregions; i++) {
        const struct region *r = &as->regions[i];
        if (r != heap && r->start >= heap->end && r->start < limit)
            limit = r->start;
    }
    return limit;
}

/*
 * Unmaps [from, to), flushes every TLB that may hold those pages, then
 * frees their frames: a frame must not be reused while another hart can
 * still reach it through a stale entry. Batched so the frames wait in a
 * small array. Swap slots go at once (no hart reaches those). Returns how
 * many pages in the range were never touched.
 */
#define UNMAP_BATCH 64
static uint64_t unmap_range(struct aspace *as, vaddr_t from, vaddr_t to)
{
    paddr_t freed[UNMAP_BATCH];
    int nfreed = 0;
    uint64_t untouched = 0;
    for (vaddr_t va = from; va < to; va += PAGE_SIZE) {
        void *leaf = mmu_leaf(as->root, va, false);
        struct leaf_info li;
        enum leaf_state st = leaf ? mmu_leaf_read(leaf, &li) : LEAF_EMPTY;
        if (st == LEAF_EMPTY || (st == LEAF_PRESENT && maps_zero_frame(&li))) {
            /* Never written: a promise (the zero page's leaf goes too). */
            if (leaf && st != LEAF_EMPTY)
                aspace_drop_leaf(as, leaf);
            untouched++;
            continue;
        }
        paddr_t pa = aspace_drop_leaf(as, leaf);
        if (!pa)
            continue;
        freed[nfreed++] = pa;
        if (nfreed == (int)ARRAY_SIZE(freed)) {
            aspace_shootdown(as);
            while (nfreed) aspace_release_frame(as, freed[--nfreed]);
        }
    }
    aspace_shootdown(as);
    while (nfreed) aspace_release_frame(as, freed[--nfreed]);
    /* Then the table pages the range emptied: fork copies and exit walks
     * what tables there are, so a space that used and freed much memory
     * would otherwise pay for it in every later fork. */
    do {
        nfreed = mmu_unhook_empty_tables(as->root, from, to, freed, (int)ARRAY_SIZE(freed));
        if (nfreed)
            aspace_shootdown(as);
        for (int i = 0; i < nfreed; i++)
            frame_free(freed[i]);
    } while (nfreed == (int)ARRAY_SIZE(freed));
    return untouched;
}

long aspace_sbrk(struct aspace *as, long increment)
{
    sleeplock_acquire(&as->lock);
    struct region *heap = heap_region(as);
    vaddr_t old = as->brk;
    long rc = (long)old;
    if (!heap) {
        rc = -ENOMEM;
    } else if (increment > 0) {
        vaddr_t want = old + (uint64_t)increment;
        vaddr_t new_end = ALIGN_UP(want, PAGE_SIZE);
        if (want < old || want > heap_limit(as, heap)) {
            rc = -ENOMEM;
        } else if (new_end > heap->end) {
            uint64_t new_pages = (new_end - heap->end) >> PAGE_SHIFT;
            if (!aspace_may_grow(as, new_pages) || commit_pages(new_pages)) {
                rc = -ENOMEM;
            } else {
                as->lazy_pages += new_pages;
                heap->end = new_end;
                as->brk = want;
            }
        } else {
            as->brk = want;
        }
    } else if (increment < 0) {
        uint64_t dec = -(uint64_t)increment;
        if (dec > old - as->heap_start) {
            rc = -EINVAL;
        } else {
            vaddr_t want = old - dec;
            vaddr_t new_end = ALIGN_UP(want, PAGE_SIZE);
            if (new_end < heap->end) {
                /* Untouched pages were promised, not mapped: release the promise. */
                uint64_t untouched = unmap_range(as, new_end, heap->end);
                as->lazy_pages -= untouched;
                uncommit_pages(untouched);
                heap->end = new_end > heap->start ? new_end : heap->start;
            }
            as->brk = want;
        }
    }
    sleeplock_release(&as->lock);
    return rc;
}

/* The region overlapping [start, end) with the lowest start, or NULL. */
static struct region *lowest_overlap(struct aspace *as, vaddr_t start, vaddr_t end)
{
    struct region *low = NULL;
    for (int i = 0; i < as->nregions; i++) {
        struct region *r = &as->regions[i];
        bool overlaps = start < r->end && r->start < end;
        /* An empty heap still marks where the heap will grow from. */
        bool empty_inside = r->start == r->end && r->start >= start && r->start < end;
        if ((overlaps || empty_inside) && (!low || r->start < low->start))
            low = r;
    }
    return low;
}

/* Top-down first fit in the mmap window: slide the candidate below each
 * region it meets until it fits or falls out of the window. 0 if full. */
static vaddr_t find_anon_space(struct aspace *as, uint64_t size)
{
    vaddr_t end = USER_MMAP_TOP;
    while (end - USER_MMAP_BASE >= size) {
        struct region *r = lowest_overlap(as, end - size, end);
        if (!r)
            return end - size;
        end = r->start;
        if (end < USER_MMAP_BASE)
            break;
    }
    return 0;
}

static long mmap_anon(struct aspace *as, vaddr_t addr, uint64_t len, unsigned prot, bool fixed,
                      bool managed);

long aspace_mmap_anon(struct aspace *as, vaddr_t addr, uint64_t len, unsigned prot, bool fixed)
{
    return mmap_anon(as, addr, len, prot, fixed, false);
}

long aspace_mmap_managed(struct aspace *as, vaddr_t addr, uint64_t len, unsigned prot)
{
    return mmap_anon(as, addr, len, prot, addr != 0, true);
}

long aspace_place_pool_locked(struct aspace *as, uint64_t size)
{
    if (as->nregions == ASPACE_MAX_REGIONS || size > USER_MMAP_SIZE)
        return -ENOMEM;
    vaddr_t at = find_anon_space(as, size);
    if (!at)
        return -ENOMEM;
    int rc = aspace_add_region(as, at, at + size, PROT_R | PROT_W, REGION_POOL);
    return rc ? rc : (long)at;
}

void aspace_remove_region_locked(struct aspace *as, vaddr_t start)
{
    for (int i = 0; i < as->nregions; i++) {
        if (as->regions[i].start == start) {
            as->regions[i] = as->regions[--as->nregions];
            return;
        }
    }
}

static long mmap_anon(struct aspace *as, vaddr_t addr, uint64_t len, unsigned prot, bool fixed,
                      bool managed)
{
    if (len == 0)
        return -EINVAL;
    /* Rounding up must not wrap; anything that large fits nowhere. */
    if (len > USER_TOP)
        return fixed ? -EINVAL : -ENOMEM;
    uint64_t size = ALIGN_UP(len, PAGE_SIZE);
    if (fixed && (addr % PAGE_SIZE || addr < USER_BASE || addr > USER_TOP - size))
        return -EINVAL;

    sleeplock_acquire(&as->lock);
    long rc;
    if (as->nregions == ASPACE_MAX_REGIONS) {
        rc = -ENOMEM;
    } else if (fixed) {
        rc = lowest_overlap(as, addr, addr + size) ? -EINVAL : (long)addr;
    } else {
        if (size > USER_MMAP_SIZE)
            rc = -ENOMEM;
        else
            rc = (long)find_anon_space(as, size);
        if (rc == 0)
            rc = -ENOMEM;
    }
    if (rc > 0) {
        /* Promise every page now, so a touch later can never run out. */
        uint64_t pages = size >> PAGE_SHIFT;
        if (!aspace_may_grow(as, pages) || commit_pages(pages)) {
            rc = -ENOMEM;
        } else {
            int err = aspace_add_region(as, (vaddr_t)rc, (vaddr_t)rc + size, prot, REGION_ANON);
            if (err) {
                uncommit_pages(pages);
                rc = err;
            } else {
                /* A managed region keeps its promise while it lasts: its
                 * pages are the handler's frames, never the kernel's. */
                as->regions[as->nregions - 1].managed = managed || as->anon_managed;
                as->lazy_pages += pages;
            }
        }
    }
    sleeplock_release(&as->lock);
    return rc;
}

int aspace_munmap(struct aspace *as, vaddr_t addr, uint64_t len)
{
    if (addr % PAGE_SIZE || len == 0 || len > USER_TOP)
        return -EINVAL;
    vaddr_t start = addr, end = addr + ALIGN_UP(len, PAGE_SIZE);
    if (end > USER_TOP)
        return -EINVAL;

    sleeplock_acquire(&as->lock);
    /* Check everything before changing anything: a refused call leaves
     * the space as it was. */
    int rc = 0;
    bool splits = false;
    for (int i = 0; i < as->nregions; i++) {
        struct region *r = &as->regions[i];
        if (!(start < r->end && r->start < end))
            continue;
        if (r->kind != REGION_ANON)
            rc = -EINVAL;
        if (r->start < start && end < r->end)
            splits = true;
    }
    if (!rc && splits && as->nregions == ASPACE_MAX_REGIONS)
        rc = -ENOMEM;
    if (rc) {
        sleeplock_release(&as->lock);
        return rc;
    }

    uint64_t untouched = 0;
    for (int i = 0; i < as->nregions; ) {
        struct region *r = &as->regions[i];
        if (!(start < r->end && r->start < end)) {
            i++;
            continue;
        }
        vaddr_t from = MAX(start, r->start), to = MIN(end, r->end);
        untouched += unmap_range(as, from, to);
        if (from == r->start && to == r->end) {
            /* Gone entirely: the last region takes its slot (order does not
             * matter), and slot i is looked at again. */
            *r = as->regions[--as->nregions];
            continue;
        }
        if (from == r->start) {
            r->start = to;
        } else if (to == r->end) {
            r->end = from;
        } else {
            /* A hole in the middle: the upper part becomes a region of its own. */
            as->regions[as->nregions++] = (struct region){ .start = to, .end = r->end, .prot = r->prot,
                                                           .kind = REGION_ANON, .managed = r->managed };
            r->end = from;
        }
        i++;
    }
    as->lazy_pages -= untouched;
    uncommit_pages(untouched);
    sleeplock_release(&as->lock);
    return 0;
}
