/*
 * lat: what its files share (main.c: the runner, timing, statistics and
 * the system-call, fault and fork benchmarks; signals.c: the signal
 * benchmarks).
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

extern uint64_t samples[SAMPLES];
extern uint64_t overhead;
/* Units of rdinstret and rdcycle readings, from what the kernel found. */
extern const char *insn_unit, *cycle_unit;

static inline __attribute__((always_inline)) uint64_t now(void)
{
    return rdinstret();
}

/* A benchmark that could not run says so in the output. */
void bench_failed(const char *name, const char *fmt, ...) __attribute__((format(__printf__, 2, 3)));
/* A sample less the empty counter pair's cost. */
uint64_t net(uint64_t t0, uint64_t t1);
void sort(uint64_t *v, int n);
/* Prints the line for `name`, leaving it open for parts when asked. */
void report_unit(const char *name, const char *unit, int warmup, uint64_t *v, int n, bool more);
void report(const char *name, uint64_t *v, int n, bool more);

/* sched.c */
void bench_yield(void);

/* signals.c */
void bench_signal_self(void);
void bench_kill_self(void);
void bench_sigpingpong(void);
void bench_sigpingpong_cross(void);
void bench_segv_catch(void);
void bench_signal_cross(void);

#endif
