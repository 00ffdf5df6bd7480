/*
 * Latency meters. Each hart updates only its own records, with interrupts
 * masked for the few instructions of an update, so no lock is needed; a
 * reader sums or copies them without stopping the harts (a reading taken
 * while a hart records may be off by that one event).
 */
#include "meter.h"
#include "proc.h"
#include "cpu.h"
#include "config.h"
#include "usercopy.h"
#include "kstring.h"
#include <faultline/errno.h>

#define METER_CALIBRATION_ROUNDS 64

bool meters_enabled = true;
/* One extra slot per hart, beyond the events, for calibration; a hart
 * finds its row through its struct cpu. */
#define METER_SCRATCH ((enum fl_meter_event)FL_METER_COUNT)
static struct meter_row meters[MAX_HARTS][FL_METER_COUNT + 1];

/* The log2 bucket of the intervals with lz leading zero bits. */
static int bucket_of_lz(int lz)
{
    int b = lz >= 63 ? 0 : 63 - lz;
    return b < FL_METER_BUCKETS ? b : FL_METER_BUCKETS - 1;
}

/* A record as readers see it: the log2 histogram and the count made from
 * the one kept by leading zeros (see meter_record), and 0 for an empty
 * record's min. */
static struct fl_meter snapshot(const struct meter_row *m, uint32_t e, int hart)
{
    struct fl_meter out;
    memset(&out, 0, sizeof out);
    out.event = e;
    out.hart = hart;
    out.sum = m->sum;
    out.min = m->min;
    out.max = m->max;
    for (int lz = 0; lz < METER_LZ_SLOTS; lz++) {
        out.hist[bucket_of_lz(lz)] += m->by_lz[lz];
        out.count += m->by_lz[lz];
    }
    if (!out.count)
        out.min = 0;
    return out;
}

static void clear(bool keep_calibration)
{
    for (int h = 0; h < MAX_HARTS; h++)
        for (int e = 0; e <= FL_METER_COUNT; e++) {
            if (keep_calibration && e == FL_METER_METER_SELF)
                continue;
            memset(&meters[h][e], 0, sizeof meters[h][e]);
            meters[h][e].min = UINT64_MAX;      /* see meter_record */
        }
}

/* Measures what one meter_record costs, so readers can subtract it: the
 * call being timed records into a scratch slot no reader sees, and the
 * timing itself is recorded as METER_SELF. */
static void calibrate(void)
{
    for (int i = 0; i < METER_CALIBRATION_ROUNDS; i++) {
        uint64_t t0 = meter_now();
        meter_record(METER_SCRATCH, t0, t0);
        uint64_t t1 = meter_now();
        meter_record(FL_METER_METER_SELF, t0, t1);
    }
}

void meters_init(bool enabled)
{
    for (int h = 0; h < MAX_HARTS; h++)
        cpus[h].meters = meters[h];
    clear(false);
    meters_enabled = enabled;
    if (enabled)
        calibrate();
}

/* The calibration stays: it describes the kernel, not a workload. */
long sys_meter_reset(void)
{
    clear(true);
    return 0;
}

/* hart = -1: one record per event summed over harts; else that hart's. */
long sys_meter_read(uint64_t hart, uint64_t ubuf, uint64_t max)
{
    int h = (int)hart;
    if (h < -1 || h >= (int)ncpus)
        return -EINVAL;
    uint64_t n = MIN(max, (uint64_t)FL_METER_COUNT);
    if (!user_range_ok(ubuf, n * sizeof(struct fl_meter)))
        return -EFAULT;
    for (uint64_t e = 0; e < n; e++) {
        struct fl_meter out;
        if (h >= 0) {
            out = snapshot(&meters[h][e], (uint32_t)e, h);
        } else {
            memset(&out, 0, sizeof out);
            out.event = (uint32_t)e;
            out.hart = -1;
            for (uint32_t k = 0; k < ncpus; k++) {
                const struct fl_meter m = snapshot(&meters[k][e], (uint32_t)e, (int)k);
                if (!m.count)
                    continue;
                if (!out.count || m.min < out.min)
                    out.min = m.min;
                if (m.max > out.max)
                    out.max = m.max;
                out.count += m.count;
                out.sum += m.sum;
                for (int b = 0; b < FL_METER_BUCKETS; b++)
                    out.hist[b] += m.hist[b];
            }
        }
        if (copy_to_user(ubuf + e * sizeof out, &out, sizeof out))
            return -EFAULT;
    }
    return (long)n;
}

uint64_t meter_split_start(uint64_t *offcpu_at_start)
{
    uint64_t irq = arch_intr_save();
    uint64_t now = meter_now();
    *offcpu_at_start = current_thread()->offcpu_cycles;
    arch_intr_restore(irq);
    return now;
}

void meter_record_split(enum fl_meter_event run, enum fl_meter_event wait,
                        uint64_t start, uint64_t offcpu_at_start)
{
    uint64_t irq = arch_intr_save();
    uint64_t end = meter_now();
    uint64_t off = current_thread()->offcpu_cycles - offcpu_at_start;
    arch_intr_restore(irq);
    meter_record(run, start, end - off);
    meter_record(wait, 0, off);
}
