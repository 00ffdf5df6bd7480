/*
 * In-kernel latency meters (kernel/core/meter.c). A probe point is a read of
 * the cycle counter; an event is the difference between two probes, kept
 * per hart as count, min, max, sum and a log2 histogram. The event list is
 * FL_METER_EVENTS in <faultline/abi.h>, shared with user programs.
 */
#ifndef FAULTLINE_METER_H
#define FAULTLINE_METER_H

#include "types.h"
#include "arch_api.h"
#include <faultline/abi.h>

extern bool meters_enabled;

static inline uint64_t meter_now(void) { return arch_read_cycles(); }

void meter_record_enabled(enum fl_meter_event e, uint64_t start, uint64_t end);

/* Records end - start for event e on this hart (no-op when disabled).
 * The test is inline so that with meters=off a probe costs a load and a
 * branch, not a call. */
static inline void meter_record(enum fl_meter_event e, uint64_t start, uint64_t end)
{
    if (meters_enabled)
        meter_record_enabled(e, start, end);
}
void meters_init(bool enabled);      /* also calibrates METER_SELF */

/* For paths that may sleep (device I/O): meter_split_start returns the
 * clock and stores the current thread's switched-out cycles so far;
 * meter_record_split records the interval since then split into what the
 * thread ran (event run) and what it spent switched out or in interrupts
 * (event wait). Each reads the clock and the switched-out cycles with
 * interrupts masked: an interrupt between the two reads would land in one
 * and not the other, and be taken off (or left in) work it was not part of. */
uint64_t meter_split_start(uint64_t *offcpu_at_start);
void meter_record_split(enum fl_meter_event run, enum fl_meter_event wait,
                        uint64_t start, uint64_t offcpu_at_start);

long sys_meter_read(uint64_t hart, uint64_t ubuf, uint64_t max);
long sys_meter_reset(void);

#endif
