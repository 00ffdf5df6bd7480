/*
 * The fault dispatcher: every page fault on a user address, from user mode
 * or from a kernel copy routine, comes here. It decides whether the address
 * is valid (a region covers it and allows the access) and makes the page
 * present, from wherever its contents are:
 *
 *   never touched / dropped clean   its origin: zeros, or the initrd's
 *                                   bytes for an image page
 *   on the swap/paging device       read back from its slot (a page-in)
 *   hidden by the clock (refbits=sw) still in memory: revealed (a minor fault)
 *
 * Getting a frame may mean evicting someone else's page first: that is the
 * memory manager's make_room (mm.h), reached through mm_alloc_frame.
 */
#include "aspace.h"
#include "frame.h"
#include "mm.h"
#include "swapspace.h"
#include "transit.h"
#include "pagestate.h"
#include "vmstat.h"
#include "meter.h"
#include "kstring.h"
#include "printk.h"
#include <faultline/errno.h>
#include <faultline/abi.h>

static bool prot_allows(unsigned prot, enum access a)
{
    switch (a) {
    case ACCESS_READ:  return prot & PROT_R;
    case ACCESS_WRITE: return prot & PROT_W;
    case ACCESS_EXEC:  return prot & PROT_X;
    }
    return false;
}

/* An image page's share of its segment's file bytes, copied into its
 * frame. Out of line: the common fill is zeros only. */
static __attribute__((noinline)) void copy_image_bytes(const struct region *r, vaddr_t page,
                                                       uint8_t *dst)
{
    vaddr_t from = MAX(page, r->src_va), to = MIN(page + PAGE_SIZE, r->src_va + r->src_len);
    if (from < to)
        memcpy(dst + (from - page), r->src + (from - r->src_va), to - from);
}

/* Writes the page's origin into the frame: zeros (unless the frame came
 * zeroed: pc=daemon zeroes free frames in idle time), then for an image
 * page the part of its segment's file bytes that falls in it. Inline:
 * the zeroing leg of the meters is then the zeroing alone. */
static inline __attribute__((always_inline)) void
fill_from_origin(const struct region *r, vaddr_t page, paddr_t pa, struct fault_probe *probe,
                 bool zeroed)
{
    uint8_t *dst = (uint8_t *)PA_TO_KVA(pa);
    if (!zeroed)
        zero_page(dst);
    else
        vm_count(VM_ZEROED_FILLS);
    if (probe)
        probe->zeroed_at = meter_now();
    if (r->kind == REGION_IMAGE)
        copy_image_bytes(r, page, dst);
}

paddr_t zero_frame_pa;

void zero_frame_init(void)
{
    zero_frame_pa = frame_alloc_zeroed(FRAME_KERNEL);
    if (!zero_frame_pa)
        panic("mm: no frame for the zero page");
}

/* Pages whose origin is zeros and whose promise sbrk or mmap keeps
 * (lazy_pages): a read may map the zero page instead of a frame. */
static bool zero_mappable(const struct region *r)
{
    return r->kind == REGION_HEAP || r->kind == REGION_ANON;
}

/* A read of an untouched page: the zero page, read-only, no frame. So
 * no frame was obtained or filled, and of the fault's legs only
 * fault.map_to_exit applies (entry_to_frame, zero_frame and frame_to_map
 * would each get a sample of nothing done). */
static int map_zero_page(struct region *r, void *leaf, struct fault_probe *probe)
{
    mmu_leaf_set(leaf, zero_frame_pa, (r->prot & ~PROT_W) | PROT_U);
    vm_count(VM_ZERO_MAPS);
    if (probe)
        probe->mapped_at = meter_now();
    return 0;
}

/* fault_locked's answers besides 0 and -errno: what vm_fault is to do
 * once it has let go of the lock. */
#define FAULT_WAIT_TRANSIT 1    /* someone else's page in transit: wait for it */
#define FAULT_FINISH_READ  2    /* this thread's page-in has begun: finish it */
#define FAULT_TO_HANDLER   3    /* a managed region's page: its fault handler's */

/* Whether a page of r in as is its user-level fault handler's to provide
 * (kernel/ulf). A managed region of a space with no handler (a fork's
 * copy) is filled by the kernel like any anonymous region. */
static inline bool handler_provides(const struct aspace *as, const struct region *r)
{
    return __builtin_expect(r->managed, 0) && as->ulf;
}

/* A frame for the faulting page, its time noted in the probe. A fault
 * that has waited out every busy owner may dip into the reserve (mm.c). */
static inline __attribute__((always_inline)) paddr_t
fault_frame(struct aspace *as, vaddr_t page, struct fault_probe *probe, int *err, bool *zeroed)
{
    paddr_t pa = mm_alloc_frame(as, page, err,
                                probe && probe->room_waits >= RECLAIM_BUSY_WAITS, zeroed);
    if (pa && probe)
        probe->frame_at = meter_now();
    return pa;
}

/* The page is on the device: a frame for it, then the read, which runs
 * with the lock let go (transit.h). Out of line: the common fault is a
 * first touch. */
static __attribute__((noinline)) int begin_page_in(struct aspace *as, struct region *r,
                                                   vaddr_t page, void *leaf,
                                                   const struct leaf_info *li,
                                                   struct fault_probe *probe)
{
    uint64_t off, start = meter_split_start(&off);
    int err;
    paddr_t pa = fault_frame(as, page, probe, &err, NULL);
    if (!pa)
        return err;
    transit_begin_in(as, leaf, pa, (uint32_t)li->slot, r->prot | PROT_U, start, off);
    return FAULT_FINISH_READ;
}

/* A page whose contents are its origin's (never touched, dropped clean,
 * or the zero page written): get a frame, fill it, map it. Inline in the
 * first touch's case of fault_locked, the common fault, which then makes
 * no call of its own and saves no registers for it; bring_in for the rest. */
static inline __attribute__((always_inline)) int
fill_new_frame(struct aspace *as, struct region *r, vaddr_t page, void *leaf,
               const struct leaf_info *li, struct fault_probe *probe)
{
    int err;
    /* Making room never waits here, so nothing can change this entry
     * meanwhile: the lock is held throughout. */
    bool zeroed = false;
    paddr_t pa = fault_frame(as, page, probe, &err, &zeroed);
    if (!pa)
        return err;
    fill_from_origin(r, page, pa, probe, zeroed);
    vm_count(r->kind == REGION_IMAGE ? VM_IMAGE_FILLS : VM_ZERO_FILLS);
    bool was_zero = li->state == LEAF_PRESENT;    /* the zero page, written: see cow_zero */
    mmu_leaf_set_tracked(leaf, pa, r->prot | PROT_U, false);
    if (was_zero)
        aspace_shootdown(as);   /* no hart may keep reading the zero page here */
    as_count(&as->resident, 1);
    if (probe)
        probe->mapped_at = meter_now();
    if ((li->state == LEAF_EMPTY || was_zero) && zero_mappable(r)) {
        /* The page sbrk or mmap promised is now real: it counts as resident. */
        as->lazy_pages--;
        uncommit_pages(1);
    }
    return 0;
}

/* The page is not in memory: get a frame, fill it, map it. */
static __attribute__((noinline)) int bring_in(struct aspace *as, struct region *r, vaddr_t page,
                                              void *leaf, struct leaf_info *li,
                                              struct fault_probe *probe)
{
    if (li->state == LEAF_SWAPPED)
        return begin_page_in(as, r, page, leaf, li, probe);
    return fill_new_frame(as, r, page, leaf, li, probe);
}

/* Under as->lock: 0 (present), or -errno for fault_resolve. */
static int fault_locked(struct aspace *as, vaddr_t va, enum access access,
                        struct fault_probe *probe, void **transit_leaf)
{
    vaddr_t page = ALIGN_DOWN(va, PAGE_SIZE);
    struct region *r = aspace_find_region(as, page);
    if (!r || !prot_allows(r->prot, access))
        return -EFAULT;
    /* One walk for both the look and the fill (it makes the table pages a
     * valid address needs anyway). */
    void *leaf = mmu_leaf(as->root, page, true);
    if (!leaf)
        return -ENOMEM;
    struct leaf_info li;
    /* The common case, a first touch, needs only to know the entry empty. */
    if (mmu_leaf_empty(leaf))
        li.state = LEAF_EMPTY;
    else
        mmu_leaf_read(leaf, &li);
    switch (li.state) {
    case LEAF_PRESENT:
        /* Another thread got here first, or the rights are wrong, or a
         * write to the zero page, which gets a frame of its own; in a
         * managed region a handler may grant more (ulf_load of the same
         * frame). */
        if (prot_allows(li.prot, access))
            return 0;
        if (access == ACCESS_WRITE && maps_zero_frame(&li))
            return bring_in(as, r, page, leaf, &li, probe);
        return handler_provides(as, r) ? FAULT_TO_HANDLER : -EFAULT;
    case LEAF_HIDDEN: {
        uint64_t start = meter_now();
        mmu_leaf_reveal(leaf);
        vm_count(VM_MINOR_FAULTS);
        meter_record(FL_METER_MINOR_FAULT, start, meter_now());
        return 0;
    }
    case LEAF_INCOMING:
    case LEAF_OUTGOING:
        /* Being read in or written out by another thread, with no lock
         * held: wait for it once this lock is let go. */
        *transit_leaf = leaf;
        return FAULT_WAIT_TRANSIT;
    case LEAF_EMPTY:
        if (handler_provides(as, r))
            return FAULT_TO_HANDLER;
        if (access == ACCESS_READ && zero_mappable(r))
            return map_zero_page(r, leaf, probe);
        return fill_new_frame(as, r, page, leaf, &li, probe);
    case LEAF_DISCARDED:
        if (handler_provides(as, r))
            return FAULT_TO_HANDLER;
        break;
    case LEAF_SWAPPED:
        break;
    }
    return bring_in(as, r, page, leaf, &li, probe);
}

/* The fault runs again: one fault in vmstat however many times it is
 * retried (counted here, not tested on every fault's way in). */
static enum fault_resolution fault_retry(void)
{
    vm_count_n(VM_FAULTS, (uint64_t)-1);
    return FAULT_RETRY;
}

/* A fault that did not map its page, as->lock already let go: waits for
 * what has to be waited for, and says what the trap code is to do. Out of
 * line: the common fault maps its page. */
static __attribute__((noinline)) enum fault_resolution
fault_resolve(struct aspace *as, int rc, struct fault_probe *probe, struct fault_outcome *out)
{
    switch (rc) {
    case FAULT_FINISH_READ:
        /* vm_fault finished the read: it failed, and the transit's end
         * put the page back on the device. */
        rc = -EIO;
        break;
    case FAULT_WAIT_TRANSIT:
        transit_wait(out->transit_leaf);
        return fault_retry();
    case FAULT_TO_HANDLER:
        return FAULT_FORWARD;
    case -EAGAIN:
        /* No frame without waiting for someone (a page-out of ours, a
         * process in its own fault, the swapper): wait now the lock is
         * free, then retry. */
        rc = mm->wait_room(as, probe->room_waits++);
        if (rc == 0)
            return fault_retry();
        break;
    }
    switch (rc) {
    case -EFAULT:
        out->sig = SIGSEGV;
        out->why = NULL;
        return FAULT_SIGNAL;
    case -EIO:
        /* The page's only copy could not be read: a bus error, which a
         * handler may catch like any other. */
        out->sig = SIGBUS;
        out->why = "I/O error on the paging device";
        return FAULT_SIGNAL;
    }
    /* Want of memory or swap ends the process, with the reason. */
    vm_count(VM_OOM_KILLS);
    out->sig = SIGKILL;
    out->why = rc == -ENOSPC ? "out of swap space" : "out of memory";
    return FAULT_KILL;
}

enum fault_resolution vm_fault(struct aspace *as, vaddr_t va, enum access access,
                               struct fault_probe *probe, struct fault_outcome *out)
{
    vm_count(VM_FAULTS);
    sleeplock_acquire(&as->lock);
    int rc = fault_locked(as, va, access, probe, &out->transit_leaf);
    if (__builtin_expect(rc == FAULT_FINISH_READ, 0)) {
        /* This thread's page-in has begun: the transit lets go of the
         * lock, reads the page and maps it. Here, not in fault_resolve:
         * a page-in is measured. */
        if (transit_finish_in(&as->lock) == 0) {
            probe->zeroed_at = probe->mapped_at = meter_now();
            return FAULT_MAPPED;
        }
        return fault_resolve(as, rc, probe, out);
    }
    sleeplock_release(&as->lock);
    if (rc == 0)
        return FAULT_MAPPED;
    if (rc == -EFAULT) {
        /* Not an address the process may touch that way: inline, as a
         * caught SIGSEGV is measured (segv_catch). */
        out->sig = SIGSEGV;
        out->why = NULL;
        return FAULT_SIGNAL;
    }
    return fault_resolve(as, rc, probe, out);
}

int aspace_make_present(struct aspace *as, vaddr_t va, paddr_t *pa)
{
    vaddr_t page = ALIGN_DOWN(va, PAGE_SIZE);
    struct region *r = aspace_find_region(as, page);
    if (!r)
        return -EFAULT;
    void *leaf = mmu_leaf(as->root, page, true);
    if (!leaf)
        return -ENOMEM;
    struct leaf_info li;
    enum leaf_state st = mmu_leaf_read(leaf, &li);
    if (pagestate_in_transit(st)) {
        /* Its transit's end takes no lock of ours: wait with it held. */
        transit_wait(leaf);
        st = mmu_leaf_read(leaf, &li);
    }
    if (st == LEAF_HIDDEN) {
        mmu_leaf_reveal(leaf);
    } else if (st != LEAF_PRESENT || maps_zero_frame(&li)) {
        /* exec's new image: no one else can reach it yet, so waiting for
         * room with its lock held keeps no one out. */
        int rc;
        for (uint32_t waits = 0; (rc = bring_in(as, r, page, leaf, &li, NULL)) == -EAGAIN;)
            if ((rc = mm->wait_room(as, waits++)) != 0)
                return rc;
        if (rc == FAULT_FINISH_READ)
            rc = transit_finish_in(NULL);
        if (rc)
            return rc;
        mmu_leaf_read(leaf, &li);
    }
    if (pa)
        *pa = li.pa;
    return 0;
}
