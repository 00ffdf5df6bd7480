/*
 * lat: the scheduler's cost. yield: two processes pinned to one hart hand
 * it to each other with yield(); a sample is one round trip timed in the
 * parent (its yield, the child's whole turn, the switch back), which is
 * two switches, so the row is half a round trip: what one switch from a
 * process to another costs, system calls included, as lmbench's lat_ctx
 * reports with no working set.
 */
#include "lat.h"

#define YIELD_HART     0
#define YIELD_SAMPLES  500
#define YIELD_WARMUP   50
#define SWITCHES_PER_ROUND_TRIP 2

static uint64_t round_trips[YIELD_SAMPLES];

void bench_yield(void)
{
    if (set_affinity(0, YIELD_HART)) {
        bench_failed("yield", "cannot pin to hart %d", YIELD_HART);
        return;
    }
    int child = fork();
    if (child == 0) {
        set_affinity(0, YIELD_HART);    /* inherited, but said: both on one hart */
        for (;;)
            yield();
    }
    if (child < 0) {
        bench_failed("yield", "fork: %s", strerror(-child));
        set_affinity(0, -1);
        return;
    }
    for (int i = 0; i < YIELD_WARMUP; i++)
        yield();
    for (int i = 0; i < YIELD_SAMPLES; i++) {
        uint64_t t0 = now();
        yield();
        uint64_t t1 = now();
        round_trips[i] = net(t0, t1) / SWITCHES_PER_ROUND_TRIP;
    }
    kill(child, SIGKILL);
    int status;
    wait(&status);
    set_affinity(0, -1);
    report_unit("yield", insn_unit, YIELD_WARMUP, round_trips, YIELD_SAMPLES, false);
}
