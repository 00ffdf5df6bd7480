/*
 * What the cycle and instret counters count, found by looking rather than
 * by being told: the tools boot with and without QEMU's -icount, and a
 * measurement must say which it was (docs/measurement.md, "Counters and
 * units").
 *
 * Under -icount shift=S, QEMU 7.2 answers rdcycle and rdinstret from its
 * virtual clock, which advances 2^S ns per retired instruction; without
 * icount both read the host's cycle counter. So a loop of known length is
 * timed at two lengths: under icount the difference of the two readings
 * is exactly the difference in instructions times 2^S, every time; under
 * host timing it is however many host cycles went by, which equals such a
 * number only by chance, and the test is repeated so that a chance match
 * does not decide it. Runs once on the boot hart, interrupts masked,
 * before any other hart starts (under icount the harts share one clock).
 */
#include "arch_api.h"

#define PROBE_SHORT     256      /* loop rounds: two instructions each */
#define PROBE_LONG      4352
#define PROBE_TRIES     4        /* every try must agree */
#define PROBE_INSNS_PER_ROUND 2
#define PROBE_MAX_SHIFT 10       /* QEMU's icount shift is at most 10 */

/* Instret ticks across `rounds` rounds of a two-instruction loop, plus the
 * same fixed cost (the second read) at every length. */
static uint64_t timed_loop(uint64_t rounds)
{
    uint64_t t0, t1;
    __asm__ volatile("rdinstret %0\n"
                     "1: addi %2, %2, -1\n"
                     "bnez %2, 1b\n"
                     "rdinstret %1\n"
                     : "=&r"(t0), "=&r"(t1), "+r"(rounds) :: "memory");
    return t1 - t0;
}

bool arch_counters_probe(unsigned *shift)
{
    const uint64_t insns = (PROBE_LONG - PROBE_SHORT) * PROBE_INSNS_PER_ROUND;
    uint64_t irq = arch_intr_save();
    int found = -1;
    for (int i = 0; i < PROBE_TRIES; i++) {
        uint64_t d = timed_loop(PROBE_LONG) - timed_loop(PROBE_SHORT);
        int s = -1;
        for (int k = 0; k <= PROBE_MAX_SHIFT; k++)
            if (d == insns << k)
                s = k;
        if (s < 0 || (found >= 0 && s != found)) {
            found = -1;
            break;
        }
        found = s;
    }
    arch_intr_restore(irq);
    *shift = found < 0 ? 0 : (unsigned)found;
    return found >= 0;
}
