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
#include "cpu.h"
#include <faultline/abi.h>

extern bool meters_enabled;

static inline uint64_t meter_now(void) { return arch_read_cycles(); }

/* One hart's record of one event as the kernel keeps it. Its histogram
 * is indexed by the interval's leading zero bits (64 for 0), which is
 * one instruction from the interval, with no clamp: every index has a
 * slot. meter_read turns it into struct fl_meter's log2 buckets (bucket b
 * counts [2^b, 2^(b+1)); 0 and 1 land in bucket 0, the rest beyond the
 * last in the last). */
#define METER_LZ_SLOTS 65
struct meter_row {
    uint64_t sum, min, max;
    uint64_t by_lz[METER_LZ_SLOTS];
};

/* Records end - start for event e on this hart: a load and a branch when
 * meters are off, about fifteen instructions inline when on (the count is
 * METER_SELF). The count is not kept here: it is the histogram's sum,
 * added up when the record is read. An empty record's min is all ones, so
 * min needs no test of the count; readers show it as 0. Interrupts are masked for the update,
 * not for a lock: the kernel is preemptible, and a thread moved to
 * another hart halfway through would write into a row that hart's own
 * records were updating. */
static inline void meter_row_add(struct meter_row *m, uint64_t d)
{
    m->sum += d;
    if (d < m->min)
        m->min = d;
    if (d > m->max)
        m->max = d;
    m->by_lz[arch_clz(d)]++;
}
static inline void meter_record(enum fl_meter_event e, uint64_t start, uint64_t end)
{
    if (!meters_enabled)
        return;
    uint64_t irq = arch_intr_save();
    meter_row_add(&this_cpu()->meters[e], end - start);
    arch_intr_restore(irq);
}
/* The same where the caller has interrupts off already (the trap paths):
 * no mask to save and restore. */
static inline void meter_record_irqs_off(enum fl_meter_event e, uint64_t start, uint64_t end)
{
    if (meters_enabled)
        meter_row_add(&this_cpu()->meters[e], end - start);
}
void meters_init(bool enabled);

/* The clock less a thread's switched-out cycles (*offcpu, its
 * offcpu_cycles), read with interrupts masked so that none lands between
 * the two reads: the difference of two readings is what the thread ran
 * between them. Inline: the page-in brackets its lock release with it. */
static inline uint64_t meter_run_clock(const uint64_t *offcpu)
{
    uint64_t irq = arch_intr_save();
    uint64_t now = meter_now() - *offcpu;
    arch_intr_restore(irq);
    return now;
}      /* also calibrates METER_SELF */

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
