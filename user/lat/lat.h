/*
 * What lat's files share (user/lat/main.c: the runner and most
 * benchmarks; stats.c: result lines and meter parts; ulf.c: user-level
 * fault handling and trap forwarding).
 */
#ifndef FAULTLINE_LAT_H
#define FAULTLINE_LAT_H

#include "ulib.h"

#define SAMPLES    1000
#define PAGE_BYTES 4096
#define HIST_BUCKETS 64
#define PERCENT_90 90
#define PERCENT    100

extern uint64_t samples[SAMPLES];
extern uint64_t overhead;          /* an empty counter pair */
extern const char *insn_unit, *cycle_unit;

static inline __attribute__((always_inline)) uint64_t now(void)
{
    return rdinstret();
}
/* t1 - t0 less the counter pair's own cost. */
uint64_t net(uint64_t t0, uint64_t t1);

/* A benchmark that could not run says so in the output, not only in a
 * line of prose, so that a report can name it. */
void bench_failed(const char *name, const char *fmt, ...) __attribute__((format(__printf__, 2, 3)));
/* The result line of name over v[0..n) (sorted in place); more: leave it
 * open for "parts". */
void report_unit(const char *name, const char *unit, int warmup, uint64_t *v, int n, bool more);
/* Ascending, in place. */
void sort(uint64_t *v, int n);
/* "hist":[[lo,hi,count],..] of log2 buckets. */
void print_hist(const uint64_t *counts);
/* A part from kernel meters read earlier (m, n as meter_read gave them). */
void report_meter_part_of(const struct fl_meter *m, long n, const char *part,
                          enum fl_meter_event e, bool last);

void bench_ulf_fault(void);
void bench_trap_forward(void);

#endif
