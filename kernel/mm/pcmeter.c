/*
 * Page-control meters (pcmeter.h). Plain atomic sums: a manager thread's
 * own start stamp is written only by that thread; a hart's switch stamps
 * only by that hart's scheduler.
 */
#include "pcmeter.h"
#include "meter.h"
#include "proc.h"
#include "cpu.h"

struct pcmeter_totals pcmeter;
bool pcmeters_enabled;
static uint64_t started[PCM_NWHO];   /* a manager's run clock when it started */

/* What the current thread has run, as a clock (meter_run_clock). */
static uint64_t run_clock(void)
{
    return meter_run_clock(&current_thread()->offcpu_cycles);
}

void pcmeter_switch_reason(enum pcm_switch why)
{
    current_thread()->pcm_reason = (uint8_t)why;
}

void pcmeter_thread_start(enum pcm_who w)
{
    started[w] = run_clock();
}

void pcmeter_thread_stop(enum pcm_who w)
{
    if (!pcmeters_enabled)
        return;
    pcmeter_add(w, run_clock() - started[w]);
}

void pcmeter_thread_lend(enum pcm_who from, enum pcm_who to)
{
    uint64_t now = run_clock();
    if (pcmeters_enabled)
        __atomic_fetch_add(&pcmeter.cycles[from], now - started[from], __ATOMIC_RELAXED);
    started[to] = now;
}

void pcmeter_idle_turn(struct cpu *c)
{
    uint64_t now = meter_now();
    uint64_t idle = now - c->pcm_turn_at;
    c->pcm_turn_at = now;
    c->pcm_idle += idle;
    __atomic_fetch_add(&pcmeter.idle, idle, __ATOMIC_RELAXED);
}

