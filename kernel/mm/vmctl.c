/*
 * vmctl: a process puts its own pages into the state a measurement needs
 * (on the device, hidden from the MMU, or the whole process swapped out),
 * through the same eviction code the managers use, so the fault that
 * follows is the real thing.
 */
#include "mm.h"
#include "proc.h"
#include "vmstat.h"
#include <faultline/abi.h>
#include <faultline/errno.h>

static long each_resident_page(struct aspace *as, vaddr_t start, vaddr_t end, int op)
{
    long done = 0;
    int rc = 0;
    sleeplock_acquire(&as->lock);
    for (vaddr_t va = start; va < end && !rc; va += PAGE_SIZE) {
        void *leaf = mmu_leaf(as->root, va, false);
        struct leaf_info li;
        if (!leaf)
            continue;
        enum leaf_state st = mmu_leaf_read(leaf, &li);
        if (st == LEAF_PRESENT && maps_zero_frame(&li))
            continue;           /* no page of its own to move */
        if ((st == LEAF_PRESENT || st == LEAF_HIDDEN) && aspace_holds_granted(as, li.pa))
            continue;               /* a fault handler's frame: its to move */
        if (op == FL_VMCTL_PAGEOUT && (st == LEAF_PRESENT || st == LEAF_HIDDEN)) {
            rc = mm_evict_page(as, leaf, li.pa);
            done += rc == 0;
        } else if (op == FL_VMCTL_HIDE && st == LEAF_PRESENT) {
            mmu_leaf_hide(leaf);
            done++;
        }
    }
    if (op == FL_VMCTL_HIDE)
        aspace_shootdown(as);     /* every hart must fault on its next touch */
    sleeplock_release(&as->lock);
    return rc && !done ? rc : done;
}

long sys_vmctl(uint64_t op, uint64_t addr, uint64_t len)
{
    struct aspace *as = current_proc()->as;
    if (op == FL_VMCTL_SWAPOUT)
        return mm->swap_out_self ? mm->swap_out_self() : -EINVAL;
    if (op != FL_VMCTL_PAGEOUT && op != FL_VMCTL_HIDE)
        return -EINVAL;
    if (addr % PAGE_SIZE || len == 0 || len > USER_TOP || addr > USER_TOP - len)
        return -EINVAL;
    return each_resident_page(as, addr, addr + ALIGN_UP(len, PAGE_SIZE), (int)op);
}
