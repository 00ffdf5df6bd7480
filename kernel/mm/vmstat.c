/*
 * vmstat: the memory managers' event counters plus the gauges (frames,
 * swap) read at the time of the call.
 */
#include "vmstat.h"
#include "mm.h"
#include "frame.h"
#include "swapspace.h"
#include "pdmap.h"
#include "pcmeter.h"
#include "meter.h"
#include "usercopy.h"
#include "ulf.h"
#include "kstring.h"
#include <faultline/abi.h>
#include <faultline/errno.h>

uint64_t vm_counters[VM_NCOUNTERS];

_Static_assert(offsetof(struct fl_vmstat, pcm_rws_runs) - offsetof(struct fl_vmstat, pcm_fault_cycles)
               == (2 * PCM_NWHO - 1) * sizeof(uint64_t), "fl_vmstat: one cycles/events pair per pcm_who");
_Static_assert(offsetof(struct fl_vmstat, sw_preempt_cycles) - offsetof(struct fl_vmstat, sw_other)
               == (2 * PCM_NSW - 1) * sizeof(uint64_t), "fl_vmstat: one pair per pcm_switch");

static uint64_t get(enum vm_counter c)
{
    return __atomic_load_n(&vm_counters[c], __ATOMIC_RELAXED);
}

long sys_vmstat(uint64_t ubuf)
{
    struct fl_vmstat st;
    memset(&st, 0, sizeof st);
    kstrlcpy(st.mm, mm_name(), sizeof st.mm);
    st.page_size = PAGE_SIZE;
    st.frames_total = frames_total_count();
    st.frames_free = frames_free_count();
    swap_usage(&st.swap_total, &st.swap_used);
    st.faults = get(VM_FAULTS);
    st.zero_fills = get(VM_ZERO_FILLS);
    st.image_fills = get(VM_IMAGE_FILLS);
    st.minor_faults = get(VM_MINOR_FAULTS);
    st.pageins = get(VM_PAGEINS);
    st.pageouts = get(VM_PAGEOUTS);
    st.reclaims = get(VM_RECLAIMS);
    st.clock_scans = get(VM_CLOCK_SCANS);
    st.swapins = get(VM_SWAPINS);
    st.swapouts = get(VM_SWAPOUTS);
    st.swapin_pages = get(VM_SWAPIN_PAGES);
    st.swapout_pages = get(VM_SWAPOUT_PAGES);
    st.io_errors = get(VM_IO_ERRORS);
    st.oom_kills = get(VM_OOM_KILLS);
    st.low_water = get(VM_LOW_WATER);
    st.high_water = get(VM_HIGH_WATER);
    st.frames_user = frames_user_count();
    aspace_totals(&st.resident_total, &st.swap_owned);
    st.zero_maps = get(VM_ZERO_MAPS);
    st.ulf_frames = ulf_frames_outstanding();
    st.core_waits = get(VM_CORE_WAITS);
    st.cm_passes = get(VM_CM_PASSES);
    st.cm_freed = get(VM_CM_FREED);
    st.cm_handoffs = get(VM_CM_HANDOFFS);
    st.pd_batches = get(VM_PD_BATCHES);
    st.pd_writes = get(VM_PD_WRITES);
    st.prezeroed = get(VM_PREZEROED);
    st.zeroed_fills = get(VM_ZEROED_FILLS);
    st.frames_zeroed = frames_zeroed_count();
    /* The pairs are in enum order in the ABI (pcmeter.h). */
    uint64_t *who = &st.pcm_fault_cycles;
    for (int w = 0; w < PCM_NWHO; w++) {
        who[2 * w] = __atomic_load_n(&pcmeter.cycles[w], __ATOMIC_RELAXED);
        who[2 * w + 1] = __atomic_load_n(&pcmeter.events[w], __ATOMIC_RELAXED);
    }
    uint64_t *sw = &st.sw_other;
    for (int r = 0; r < PCM_NSW; r++) {
        sw[2 * r] = __atomic_load_n(&pcmeter.switches[r], __ATOMIC_RELAXED);
        sw[2 * r + 1] = __atomic_load_n(&pcmeter.switch_cycles[r], __ATOMIC_RELAXED);
    }
    st.pcm_fault_delay_cycles = __atomic_load_n(&pcmeter.fault_delay, __ATOMIC_RELAXED);
    st.idle_cycles = __atomic_load_n(&pcmeter.idle, __ATOMIC_RELAXED);
    st.clock_cycles = meter_now();
    pdmap_usage(&st.pd_records, &st.pd_free);
    st.pd_stores = get(VM_PD_STORES);
    st.pd_reads = get(VM_PD_READS);
    st.rws_moves = get(VM_RWS_MOVES);
    st.pd_reclaimed = get(VM_PD_RECLAIMED);
    st.pd_full = get(VM_PD_FULL);
    st.slots_reaped = get(VM_SLOTS_REAPED);
    return copy_to_user(ubuf, &st, sizeof st) ? -EFAULT : 0;
}
