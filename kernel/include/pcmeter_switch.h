/*
 * The scheduler's side of the page-control meters (pcmeter.h), inline:
 * they run on every context switch, which the yield and signal rows of
 * lat time. Only sched.c includes this.
 */
#ifndef FAULTLINE_PCMETER_SWITCH_H
#define FAULTLINE_PCMETER_SWITCH_H

#include "pcmeter.h"
#include "meter.h"
#include "proc.h"
#include "cpu.h"

/* A thread leaves the hart: why, and when. */
static inline void pcmeter_switch_out(struct cpu *c, struct thread *t)
{
    enum pcm_switch why = t->state == T_RUNNABLE ? PCM_SW_PREEMPT : (enum pcm_switch)t->pcm_reason;
    t->pcm_reason = PCM_SW_OTHER;
    c->pcm_why = (uint8_t)why;
    c->pcm_idle = 0;
    c->pcm_out_at = c->pcm_turn_at = meter_now();
}

/* A thread is about to be switched in: the scheduler's time since the
 * last switch-out, less its idle turns, goes to that switch's reason. */
static inline void pcmeter_switch_in(struct cpu *c)
{
    if (!c->pcm_out_at)
        return;               /* the hart's first thread: nothing left it */
    uint64_t spent = meter_now() - c->pcm_out_at - c->pcm_idle;
    __atomic_fetch_add(&pcmeter.switches[c->pcm_why], 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&pcmeter.switch_cycles[c->pcm_why], spent, __ATOMIC_RELAXED);
    c->pcm_out_at = 0;
}

#endif
