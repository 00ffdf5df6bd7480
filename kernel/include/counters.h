/* What the cycle and instret counters count (kernel/proc/time.c): user space
 * reads it through sysinfo, so a benchmark can label its unit truthfully. */
#ifndef FAULTLINE_COUNTERS_H
#define FAULTLINE_COUNTERS_H
#include "types.h"

struct counter_kind {
    bool icount;          /* counting instructions (QEMU -icount) */
    unsigned shift;       /* under icount: log2 of the ticks per instruction */
};
extern struct counter_kind counters;

/* Boot hart, before the other harts start: probes and prints
 * "faultline: counters: ...". */
void counters_init(void);
#endif
