/*
 * Address spaces: creation, regions, fork's copy, sbrk, mmap and munmap,
 * teardown, and TLB shootdown. Frames mapped into a space are FRAME_USER in the core map,
 * owned by the space, with their virtual page recorded there.
 */
#include "aspace.h"
#include "frame.h"
#include "proc.h"
#include "printk.h"
#include "kstring.h"
#include "meter.h"
#include "mm.h"
#include "swap.h"
#include <faultline/errno.h>

#define MAX_ASPACES (MAX_PROCS * 2)     /* exec holds the old and the new */

static struct aspace aspaces[MAX_ASPACES];
static struct spinlock aspaces_lock = SPINLOCK_INIT("aspaces");

static void release_harts(struct aspace *as);
static uint64_t lazy_committed;

/* Lock-free: the fault path releases one promise per first touch, and a
 * compare-and-swap costs far less there than a spinlock round trip. */
int commit_pages(uint64_t n)
{
    uint64_t cur = __atomic_load_n(&lazy_committed, __ATOMIC_RELAXED);
    for (;;) {
        uint64_t free = frames_free_count() + mm_commit_extra();
        uint64_t limit = free > COMMIT_RESERVE_FRAMES ? free - COMMIT_RESERVE_FRAMES : 0;
        if (cur + n > limit)
            return -ENOMEM;
        if (__atomic_compare_exchange_n(&lazy_committed, &cur, cur + n, false,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            return 0;
    }
}

void uncommit_pages(uint64_t n)
{
    uint64_t before = __atomic_fetch_sub(&lazy_committed, n, __ATOMIC_RELAXED);
    if (n > before)
        panic("commit: releasing %lu pages, only %lu promised", n, before);
}


struct aspace *aspace_create(void)
{
    struct aspace *as = NULL;
    spin_lock(&aspaces_lock);
    for (int i = 0; i < MAX_ASPACES; i++) {
        if (!aspaces[i].in_use) {
            as = &aspaces[i];
            as->in_use = true;
            break;
        }
    }
    spin_unlock(&aspaces_lock);
    if (!as)
        return NULL;
    as->root = mmu_new_user_root();
    if (!as->root) {
        as->in_use = false;
        return NULL;
    }
    sleeplock_init(&as->lock, "aspace");
    as->nregions = 0;
    as->heap_start = as->brk = 0;
    as->resident = 0;
    as->swapped = 0;
    as->lazy_pages = 0;
    return as;
}

/* Gives back whatever a leaf holds: its frame or its swap slot. Returns
 * the frame (the caller frees it once no TLB can reach it), or 0. */
static paddr_t drop_leaf(struct aspace *as, void *leaf)
{
    struct leaf_info li;
    switch (mmu_leaf_read(leaf, &li)) {
    case LEAF_PRESENT:
    case LEAF_HIDDEN:
        mmu_leaf_take(leaf);
        as->resident--;
        return li.pa;
    case LEAF_SWAPPED:
        mmu_leaf_clear(leaf);
        swap_free((uint32_t)li.slot, 1);
        as->swapped--;
        return 0;
    case LEAF_DISCARDED:
    case LEAF_EMPTY:
        mmu_leaf_clear(leaf);
        return 0;
    }
    return 0;
}

static void destroy_leaf(vaddr_t va, void *leaf, void *ctx)
{
    (void)va;
    paddr_t pa = drop_leaf(ctx, leaf);
    if (pa)
        frame_free(pa);
}

void aspace_destroy(struct aspace *as)
{
    release_harts(as);
    /* The lock keeps the replacement clock away: it only takes a page
     * whose space it can lock. */
    sleeplock_acquire(&as->lock);
    mmu_for_each_user_leaf(as->root, destroy_leaf, as);
    mmu_free_user_root(as->root);
    as->root = 0;
    uncommit_pages(as->lazy_pages);
    as->lazy_pages = 0;
    sleeplock_release(&as->lock);
    spin_lock(&aspaces_lock);
    as->in_use = false;
    spin_unlock(&aspaces_lock);
}

int aspace_add_region(struct aspace *as, vaddr_t start, vaddr_t end, unsigned prot, enum region_kind kind)
{
    if (as->nregions == ASPACE_MAX_REGIONS)
        return -ENOMEM;
    /* Only the heap may be empty: it starts at zero length and grows. */
    if (start > end || (start == end && kind != REGION_HEAP) || end > USER_TOP || start < USER_BASE)
        return -EINVAL;
    for (int i = 0; i < as->nregions; i++)
        if (start < as->regions[i].end && as->regions[i].start < end)
            return -EINVAL;
    as->regions[as->nregions++] = (struct region){ .start = start, .end = end, .prot = prot, .kind = kind };
    return 0;
}

int aspace_add_image(struct aspace *as, vaddr_t start, vaddr_t end, unsigned prot,
                     const uint8_t *src, vaddr_t src_va, uint64_t src_len)
{
    if (src_va < start || src_len > end - src_va)
        return -EINVAL;
    int rc = aspace_add_region(as, start, end, prot, REGION_IMAGE);
    if (rc)
        return rc;
    struct region *r = &as->regions[as->nregions - 1];
    r->src = src;
    r->src_va = src_va;
    r->src_len = src_len;
    return 0;
}

struct region *aspace_find_region(struct aspace *as, vaddr_t va)
{
    for (int i = 0; i < as->nregions; i++)
        if (va >= as->regions[i].start && va < as->regions[i].end)
            return &as->regions[i];
    return NULL;
}

struct clone_ctx { struct aspace *src, *dst; int rc; };

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
    void *dleaf = mmu_leaf(cc->dst->root, va, true);
    if (!dleaf) {
        cc->rc = -ENOMEM;
        return;
    }
    if (mmu_leaf_read(leaf, &li) == LEAF_DISCARDED) {
        mmu_leaf_set_discarded(dleaf);      /* same origin, nothing to copy */
        return;
    }
    struct region *r = aspace_find_region(cc->dst, va);
    if (!r) {
        cc->rc = -EFAULT;
        return;
    }
    int err;
    bool made_room;
    paddr_t copy = frame_alloc_user(cc->dst, va >> PAGE_SHIFT);
    if (!copy && !mm_pages_on_demand()) {
        /* mm=swap with memory full: the child's copy of this page goes
         * straight to the device, as V7's fork built a child on swap when
         * it did not fit; it comes in with the rest of the child later. */
        cc->rc = copy_leaf_to_swap(cc->dst, leaf, dleaf);
        return;
    }
    if (!copy)
        copy = mm_alloc_frame(cc->dst, va, &err, &made_room);
    if (!copy) {
        cc->rc = err;
        return;
    }
    int rc = 0;
    switch (mmu_leaf_read(leaf, &li)) {
    case LEAF_PRESENT:
    case LEAF_HIDDEN:
        memcpy((void *)PA_TO_KVA(copy), (const void *)PA_TO_KVA(li.pa), PAGE_SIZE);
        break;
    case LEAF_SWAPPED:
        rc = swap_read((uint32_t)li.slot, copy);
        break;
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
    /* Nothing else holds what the child's frame holds. */
    frame_set_dirty(copy, true);
    mmu_leaf_set_tracked(dleaf, copy, r->prot | PROT_U, false);
    cc->dst->resident++;
}

int aspace_clone(struct aspace *src, struct aspace **out)
{
    struct aspace *dst = aspace_create();
    if (!dst)
        return -EAGAIN;
    /* Parent before child; nobody else can wait for the new child's lock. */
    sleeplock_acquire(&src->lock);
    sleeplock_acquire(&dst->lock);
    memcpy(dst->regions, src->regions, sizeof dst->regions);
    dst->nregions = src->nregions;
    dst->heap_start = src->heap_start;
    dst->brk = src->brk;
    struct clone_ctx cc = { src, dst, commit_pages(src->lazy_pages) };
    if (!cc.rc)
        dst->lazy_pages = src->lazy_pages;
    mmu_for_each_user_leaf(src->root, copy_leaf, &cc);
    sleeplock_release(&dst->lock);
    sleeplock_release(&src->lock);
    if (cc.rc) {
        aspace_destroy(dst);
        return cc.rc;
    }
    *out = dst;
    return 0;
}

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
        if (!leaf || mmu_leaf_read(leaf, NULL) == LEAF_EMPTY) {
            untouched++;
            continue;
        }
        paddr_t pa = drop_leaf(as, leaf);
        if (!pa)
            continue;
        freed[nfreed++] = pa;
        if (nfreed == (int)ARRAY_SIZE(freed)) {
            aspace_shootdown(as);
            while (nfreed) frame_free(freed[--nfreed]);
        }
    }
    aspace_shootdown(as);
    while (nfreed) frame_free(freed[--nfreed]);
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
            if (commit_pages(new_pages)) {
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

long aspace_mmap_anon(struct aspace *as, vaddr_t addr, uint64_t len, unsigned prot, bool fixed)
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
        if (commit_pages(pages)) {
            rc = -ENOMEM;
        } else {
            int err = aspace_add_region(as, (vaddr_t)rc, (vaddr_t)rc + size, prot, REGION_ANON);
            if (err) {
                uncommit_pages(pages);
                rc = err;
            } else {
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
            as->regions[as->nregions++] = (struct region){ .start = to, .end = r->end, .prot = r->prot, .kind = REGION_ANON };
            r->end = from;
        }
        i++;
    }
    as->lazy_pages -= untouched;
    uncommit_pages(untouched);
    sleeplock_release(&as->lock);
    return 0;
}

int aspace_write(struct aspace *as, vaddr_t va, const void *src, uint64_t n)
{
    const uint8_t *s = src;
    while (n) {
        vaddr_t page = ALIGN_DOWN(va, PAGE_SIZE);
        uint64_t off = va - page, chunk = MIN(n, PAGE_SIZE - off);
        paddr_t pa;
        int rc = aspace_make_present(as, page, &pa);
        if (rc)
            return rc;
        memcpy((uint8_t *)PA_TO_KVA(pa) + off, s, chunk);
        /* Written behind the page table's back: no dirty bit was set. */
        frame_set_dirty(pa, true);
        s += chunk;
        va += chunk;
        n -= chunk;
    }
    return 0;
}

void aspace_totals(uint64_t *resident, uint64_t *swapped)
{
    *resident = *swapped = 0;
    spin_lock(&aspaces_lock);
    for (int i = 0; i < MAX_ASPACES; i++) {
        if (aspaces[i].in_use) {
            *resident += aspaces[i].resident;
            *swapped += aspaces[i].swapped;
        }
    }
    spin_unlock(&aspaces_lock);
}

/*
 * Every hart whose satp holds as->root may cache its translations (the
 * scheduler switches tables lazily). Ask each to flush, and wait until all
 * have. Waiting yields instead of spinning: under -icount the other hart
 * can only run when this one gives up its turn.
 */
void aspace_shootdown(struct aspace *as)
{
    irq_save();
    if (this_cpu()->active_root == as->root)
        mmu_flush_local();
    irq_restore();
    for (uint32_t i = 0; i < ncpus; i++) {
        struct cpu *c = &cpus[i];
        if (c == this_cpu() || !c->online || c->active_root != as->root)
            continue;
        cpu_send_ipi(c, IPI_TLB_FLUSH);
        while (__atomic_load_n(&c->ipi_pending, __ATOMIC_SEQ_CST) & IPI_TLB_FLUSH)
            yield();
    }
}

/*
 * Before a detached address space is freed, no hart may still have its
 * table loaded. Nobody loads it any more (no process points to it), so the
 * set of harts holding it only shrinks: drop it here, IPI the others (their
 * handler drops a table they only hold lazily) and wait until none has it.
 * We may move between harts while waiting, so "here" is re-read each time.
 */
static void release_harts(struct aspace *as)
{
    for (;;) {
        bool held = false;
        irq_save();
        struct cpu *self = this_cpu();
        if (self->active_root == as->root) {
            mmu_activate(kernel_pagetable);
            self->active_root = kernel_pagetable;
        }
        for (uint32_t i = 0; i < ncpus; i++) {
            struct cpu *c = &cpus[i];
            if (c != self && c->online && __atomic_load_n(&c->active_root, __ATOMIC_SEQ_CST) == as->root) {
                held = true;
                if (!(c->ipi_pending & IPI_TLB_FLUSH))
                    cpu_send_ipi(c, IPI_TLB_FLUSH);
            }
        }
        irq_restore();
        if (!held)
            return;
        yield();
    }
}
