/*
 * The fault dispatcher: every page fault on a user address, from user mode
 * or from a kernel copy routine, comes here. It decides whether the address
 * is valid (a region covers it and allows the access) and makes the page
 * present. Today that means demand-zero for heap, stack and anonymous
 * mappings; the memory managers will add page-in and swap-in behind the
 * same entry point.
 */
#include "aspace.h"
#include "frame.h"
#include <faultline/errno.h>

static bool region_allows(const struct region *r, enum access a)
{
    switch (a) {
    case ACCESS_READ:  return r->prot & PROT_R;
    case ACCESS_WRITE: return r->prot & PROT_W;
    case ACCESS_EXEC:  return r->prot & PROT_X;
    }
    return false;
}

int vm_fault_locked(struct aspace *as, vaddr_t va, enum access access, struct fault_probe *probe)
{
    vaddr_t page = ALIGN_DOWN(va, PAGE_SIZE);
    struct region *r = aspace_find_region(as, page);
    if (!r || !region_allows(r, access))
        return -EFAULT;
    /* One walk for both the look and the fill (it makes the table pages a
     * valid address needs anyway). */
    void *leaf = mmu_leaf(as->root, page, true);
    if (!leaf)
        return -ENOMEM;
    unsigned prot;
    if (mmu_leaf_get(leaf, NULL, &prot)) {
        /* Present: another thread got here first, or the rights are wrong. */
        bool ok = access == ACCESS_WRITE ? (prot & PROT_W) :
                  access == ACCESS_EXEC ? (prot & PROT_X) : (prot & PROT_R);
        return ok ? 0 : -EFAULT;
    }
    if (r->kind == REGION_IMAGE)
        return -EFAULT;           /* image pages are present from exec on */
    int rc = aspace_map_zero_page_probed(as, leaf, page, r->prot, probe);
    if (rc == 0 && (r->kind == REGION_HEAP || r->kind == REGION_ANON)) {
        /* The page sbrk or mmap promised is now real: it counts as resident. */
        as->lazy_pages--;
        uncommit_pages(1);
    }
    return rc;
}

int vm_fault(struct aspace *as, vaddr_t va, enum access access, struct fault_probe *probe)
{
    sleeplock_acquire(&as->lock);
    int rc = vm_fault_locked(as, va, access, probe);
    sleeplock_release(&as->lock);
    return rc;
}
