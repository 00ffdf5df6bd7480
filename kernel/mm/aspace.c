/*
 * Address spaces: creation, regions, fork's copy, sbrk, teardown, and TLB
 * shootdown. Frames mapped into a space are FRAME_USER in the core map,
 * owned by the space, with their virtual page recorded there.
 */
#include "aspace.h"
#include "frame.h"
#include "proc.h"
#include "printk.h"
#include "kstring.h"
#include "meter.h"
#include <faultline/errno.h>

#define MAX_ASPACES (MAX_PROCS * 2)     /* exec holds the old and the new */

static struct aspace aspaces[MAX_ASPACES];
static struct spinlock aspaces_lock = SPINLOCK_INIT("aspaces");
static struct spinlock commit_lock = SPINLOCK_INIT("commit");

static void release_harts(struct aspace *as);
static uint64_t lazy_committed;

int commit_pages(uint64_t n)
{
    int rc = 0;
    spin_lock(&commit_lock);
    uint64_t free = frames_free_count();
    uint64_t limit = free > COMMIT_RESERVE_FRAMES ? free - COMMIT_RESERVE_FRAMES : 0;
    if (lazy_committed + n > limit)
        rc = -ENOMEM;
    else
        lazy_committed += n;
    spin_unlock(&commit_lock);
    return rc;
}

void uncommit_pages(uint64_t n)
{
    spin_lock(&commit_lock);
    if (n > lazy_committed)
        panic("commit: releasing %lu pages, only %lu promised", n, lazy_committed);
    lazy_committed -= n;
    spin_unlock(&commit_lock);
}

uint64_t committed_pages(void) { return lazy_committed; }

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
    as->heap_lazy = 0;
    return as;
}

static void free_page(vaddr_t va, paddr_t pa, unsigned prot, void *ctx)
{
    (void)prot;
    struct aspace *as = ctx;
    mmu_unmap_page(as->root, va);
    frame_free(pa);
    as->resident--;
}

void aspace_destroy(struct aspace *as)
{
    release_harts(as);
    mmu_for_each_user_page(as->root, free_page, as);
    mmu_free_user_root(as->root);
    as->root = 0;
    uncommit_pages(as->heap_lazy);
    as->heap_lazy = 0;
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
    as->regions[as->nregions++] = (struct region){ start, end, prot, kind };
    return 0;
}

struct region *aspace_find_region(struct aspace *as, vaddr_t va)
{
    for (int i = 0; i < as->nregions; i++)
        if (va >= as->regions[i].start && va < as->regions[i].end)
            return &as->regions[i];
    return NULL;
}

/* Allocates a zeroed frame and maps it at va with the region's rights,
 * noting the probe points of the demand-zero path if asked. */
int aspace_map_zero_page_probed(struct aspace *as, vaddr_t va, unsigned prot, struct fault_probe *probe)
{
    paddr_t pa = frame_alloc(FRAME_USER);
    if (!pa)
        return -ENOMEM;
    if (probe)
        probe->frame_at = meter_now();
    zero_page((void *)PA_TO_KVA(pa));
    if (probe)
        probe->zeroed_at = meter_now();
    if (mmu_map_page(as->root, va, pa, prot | PROT_U)) {
        frame_free(pa);
        return -ENOMEM;
    }
    frame_set_owner(pa, as, va >> PAGE_SHIFT);
    as->resident++;
    if (probe)
        probe->mapped_at = meter_now();
    return 0;
}

int aspace_map_zero_page(struct aspace *as, vaddr_t va, unsigned prot)
{
    return aspace_map_zero_page_probed(as, va, prot, NULL);
}

struct clone_ctx { struct aspace *dst; int rc; };

static void copy_page(vaddr_t va, paddr_t pa, unsigned prot, void *arg)
{
    struct clone_ctx *cc = arg;
    if (cc->rc)
        return;
    paddr_t copy = frame_alloc(FRAME_USER);
    if (!copy) {
        cc->rc = -ENOMEM;
        return;
    }
    memcpy((void *)PA_TO_KVA(copy), (const void *)PA_TO_KVA(pa), PAGE_SIZE);
    if (mmu_map_page(cc->dst->root, va, copy, prot)) {
        frame_free(copy);
        cc->rc = -ENOMEM;
        return;
    }
    frame_set_owner(copy, cc->dst, va >> PAGE_SHIFT);
    cc->dst->resident++;
}

int aspace_clone(struct aspace *src, struct aspace **out)
{
    struct aspace *dst = aspace_create();
    if (!dst)
        return -EAGAIN;
    sleeplock_acquire(&src->lock);
    memcpy(dst->regions, src->regions, sizeof dst->regions);
    dst->nregions = src->nregions;
    dst->heap_start = src->heap_start;
    dst->brk = src->brk;
    struct clone_ctx cc = { dst, commit_pages(src->heap_lazy) };
    if (!cc.rc)
        dst->heap_lazy = src->heap_lazy;
    mmu_for_each_user_page(src->root, copy_page, &cc);
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

static vaddr_t heap_limit(struct aspace *as)
{
    vaddr_t limit = USER_TOP;
    for (int i = 0; i < as->nregions; i++)
        if (as->regions[i].kind == REGION_STACK && as->regions[i].start < limit)
            limit = as->regions[i].start;
    return limit - USER_HEAP_GAP;
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
        if (want < old || want > heap_limit(as)) {
            rc = -ENOMEM;
        } else if (new_end > heap->end) {
            uint64_t new_pages = (new_end - heap->end) >> PAGE_SHIFT;
            if (commit_pages(new_pages)) {
                rc = -ENOMEM;
            } else {
                as->heap_lazy += new_pages;
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
                /* Unmap first, flush every TLB that may hold them, then free. */
                paddr_t freed[64];
                int nfreed = 0;
                uint64_t untouched = 0;
                for (vaddr_t va = new_end; va < heap->end; va += PAGE_SIZE) {
                    paddr_t pa = mmu_unmap_page(as->root, va);
                    if (!pa) {
                        untouched++;
                        continue;
                    }
                    as->resident--;
                    freed[nfreed++] = pa;
                    if (nfreed == (int)ARRAY_SIZE(freed)) {
                        aspace_shootdown(as);
                        while (nfreed) frame_free(freed[--nfreed]);
                    }
                }
                aspace_shootdown(as);
                while (nfreed) frame_free(freed[--nfreed]);
                as->heap_lazy -= untouched;
                uncommit_pages(untouched);
                heap->end = new_end > heap->start ? new_end : heap->start;
            }
            as->brk = want;
        }
    }
    sleeplock_release(&as->lock);
    return rc;
}

int aspace_write(struct aspace *as, vaddr_t va, const void *src, uint64_t n)
{
    const uint8_t *s = src;
    while (n) {
        vaddr_t page = ALIGN_DOWN(va, PAGE_SIZE);
        uint64_t off = va - page, chunk = MIN(n, PAGE_SIZE - off);
        paddr_t pa;
        if (!mmu_lookup(as->root, page, &pa, NULL, NULL)) {
            struct region *r = aspace_find_region(as, page);
            if (!r)
                return -EFAULT;
            int rc = aspace_map_zero_page(as, page, r->prot);
            if (rc)
                return rc;
            mmu_lookup(as->root, page, &pa, NULL, NULL);
        }
        memcpy((uint8_t *)PA_TO_KVA(pa) + off, s, chunk);
        s += chunk;
        va += chunk;
        n -= chunk;
    }
    return 0;
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
