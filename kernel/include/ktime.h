/* Time: the scheduler tick and conversions of arch time units. */
#ifndef FAULTLINE_KTIME_H
#define FAULTLINE_KTIME_H
#include "types.h"
struct cpu;
void time_init(uint64_t timebase_hz);
void timer_start_hart(struct cpu *c);
void timer_interrupt(void);             /* from the trap handler */
uint64_t time_to_us(uint64_t units);
uint64_t time_now_us(void);
long sleep_ms(uint64_t ms);
long sys_sleep(uint64_t ms);
#endif
