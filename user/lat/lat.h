/*
 * lat: what its files share (main.c: the runner, timing and the
 * system-call, fault and fork benchmarks; stats.c: result lines and meter
 * parts; signals.c: the signal benchmarks; sched.c: yield; ulf.c:
 * user-level fault handling and trap forwarding).
 */
#ifndef LAT_H
#define LAT_H

#include "ulib.h"

#define SAMPLES         1000
#define CROSS_SAMPLES   100        /* cross-hart signals: each waits for the other hart */
#define CROSS_WARMUP    10
#define CROSS_WAIT_MS   1          /* the sender sleeps (its hart idles) while the target runs */
#define PINGPONG_SAMPLES 500       /* round trips between two processes */
#define RISCV_INSN_BYTES 4         /* the faulting load in segv_catch is not compressed */
#define WARMUP          100
#define PAGE_BYTES      4096
#define HIST_BUCKETS    64
#define PERCENT_90      90
#define PERCENT         100

extern uint64_t samples[SAMPLES];
extern uint64_t overhead;          /* an empty counter pair */
/* Units of rdinstret and rdcycle readings, from what the kernel found. */
extern const char *insn_unit, *cycle_unit;

static inline __attribute__((always_inline)) uint64_t now(void)
{
    return rdinstret();
}

/* A benchmark that could not run says so in the output, not only in a
 * line of prose, so that a report can name it. */
void bench_failed(const char *name, const char *fmt, ...) __attribute__((format(__printf__, 2, 3)));
/* t1 - t0 less the counter pair's own cost. */
uint64_t net(uint64_t t0, uint64_t t1);
void report(const char *name, uint64_t *v, int n, bool more);

/* stats.c */
/* Ascending, in place. */
void sort(uint64_t *v, int n);
/* The result line of name over v[0..n) (sorted in place); more: leave it
 * open for "parts". */
void report_unit(const char *name, const char *unit, int warmup, uint64_t *v, int n, bool more);
/* "hist":[[lo,hi,count],..] of log2 buckets. */
void print_hist(const uint64_t *counts);
/* A part from kernel meters read earlier (m, n as meter_read gave them). */
void report_meter_part_of(const struct fl_meter *m, long n, const char *part,
                          enum fl_meter_event e, bool last);

/* sched.c */
void bench_yield(void);

/* signals.c */
void bench_signal_self(void);
void bench_kill_self(void);
void bench_sigpingpong(void);
void bench_sigpingpong_cross(void);
void bench_segv_catch(void);
void bench_signal_cross(void);

/* ulf.c */
void bench_ulf_fault(void);
void bench_trap_forward(void);

#endif
