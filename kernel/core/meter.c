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
/* One extra slot per hart, beyond the events, for calibration. A hart's
 * row is padded to METER_ROW records, a sum of two powers of two, so that
 * finding a record stays two shifts and an add whatever the number of
 * events: a row of 21 would cost every record one more instruction. */
#define METER_SCRATCH ((enum fl_meter_event)FL_METER_COUNT)
#define METER_ROW 32
_Static_assert(FL_METER_COUNT + 1 <= METER_ROW, "meters: raise METER_ROW (32 + 16 = 48 next)");
static struct fl_meter meters[MAX_HARTS][METER_ROW];

/* floor(log2(b)) of every byte value (0 for 0 and 1), filled in by
 * meters_init(). */
#define BYTE_VALUES 256
static uint8_t log2_byte[BYTE_VALUES];

static void log2_table_init(void)
{
    log2_byte[0] = log2_byte[1] = 0;
    for (unsigned i = 2; i < BYTE_VALUES; i++)
        log2_byte[i] = (uint8_t)(log2_byte[i / 2] + 1);
}

/* floor(log2(v)), 0 for v <= 1: halve the range down to a byte in three
 * unrolled steps (not taken for the usual short intervals), then one table
 * load. (A shift loop would be compiled into a libgcc clz call, which the
 * kernel does not link, and QEMU 7.2's rv64 cannot be assumed to have Zbb.)
 * Values beyond the last bucket land in it. */
static unsigned log2_bucket(uint64_t v)
{
    unsigned b = 0;
    if (v >> 32) { v >>= 32; b += 32; }
    if (v >> 16) { v >>= 16; b += 16; }
    if (v >> 8)  { v >>= 8;  b += 8; }
    b += log2_byte[v];
    return b < FL_METER_BUCKETS ? b : FL_METER_BUCKETS - 1;
}

void meter_record_enabled(enum fl_meter_event e, uint64_t start, uint64_t end)
{
    uint64_t d = end - start;
    unsigned bucket = log2_bucket(d);
    uint64_t irq = arch_intr_save();      /* stay on this hart for the update */
    struct fl_meter *m = &meters[this_cpu()->id][(unsigned)e];
    /* An empty asm that "changes" m: GCC would otherwise recompute the
     * address from the hart and event for every field it touches. */
    __asm__("" : "+r"(m));
    uint64_t count = m->count;
    if (count == 0 || d < m->min)
        m->min = d;
    if (d > m->max)
        m->max = d;
    m->count = count + 1;
    m->sum += d;
    m->hist[bucket]++;
    arch_intr_restore(irq);
}

static void clear(bool keep_calibration)
{
    for (int h = 0; h < MAX_HARTS; h++)
        for (int e = 0; e <= FL_METER_COUNT; e++) {
            if (keep_calibration && e == FL_METER_METER_SELF)
                continue;
            memset(&meters[h][e], 0, sizeof meters[h][e]);
            meters[h][e].event = (uint32_t)e;
            meters[h][e].hart = h;
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
    log2_table_init();
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
            out = meters[h][e];
        } else {
            memset(&out, 0, sizeof out);
            out.event = (uint32_t)e;
            out.hart = -1;
            for (uint32_t k = 0; k < ncpus; k++) {
                const struct fl_meter *m = &meters[k][e];
                if (!m->count)
                    continue;
                if (!out.count || m->min < out.min)
                    out.min = m->min;
                if (m->max > out.max)
                    out.max = m->max;
                out.count += m->count;
                out.sum += m->sum;
                for (int b = 0; b < FL_METER_BUCKETS; b++)
                    out.hist[b] += m->hist[b];
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
