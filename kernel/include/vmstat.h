/*
 * Memory-manager counters (kernel/mm/vmstat.c), read by the vmstat system
 * call as struct fl_vmstat. System wide, since boot; atomic adds, so any
 * hart may count without a lock.
 */
#ifndef FAULTLINE_VMSTAT_H
#define FAULTLINE_VMSTAT_H

#include "types.h"

enum vm_counter {
    VM_FAULTS, VM_ZERO_FILLS, VM_IMAGE_FILLS, VM_MINOR_FAULTS,
    VM_PAGEINS, VM_PAGEOUTS, VM_RECLAIMS, VM_CLOCK_SCANS,
    VM_SWAPINS, VM_SWAPOUTS, VM_SWAPIN_PAGES, VM_SWAPOUT_PAGES,
    VM_IO_ERRORS, VM_OOM_KILLS, VM_LOW_WATER, VM_HIGH_WATER, VM_ZERO_MAPS,
    /* pc=daemon (pc_daemon.c) */
    VM_CORE_WAITS, VM_CM_PASSES, VM_CM_FREED, VM_CM_HANDOFFS, VM_PD_BATCHES,
    VM_PD_WRITES, VM_PREZEROED, VM_ZEROED_FILLS,
    /* pd= (pdmap.c) */
    VM_PD_STORES, VM_PD_READS, VM_RWS_MOVES, VM_PD_RECLAIMED, VM_PD_FULL,
    VM_SLOTS_REAPED,
    VM_NCOUNTERS
};

/* Inline: the fault path counts on every fault. */
extern uint64_t vm_counters[VM_NCOUNTERS];
static inline void vm_count_n(enum vm_counter c, uint64_t n)
{
    __atomic_fetch_add(&vm_counters[c], n, __ATOMIC_RELAXED);
}
static inline void vm_count(enum vm_counter c) { vm_count_n(c, 1); }

long sys_vmstat(uint64_t ubuf);

#endif
