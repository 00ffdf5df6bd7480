/*
 * A disk's service time, modelled (blk_latency.h). A real disk of the
 * papers' era took tens of milliseconds a request (seek, rotation,
 * transfer) and did one at a time; QEMU's image file answers in
 * microseconds of host time and takes many at once. The model makes every
 * request take the same service time and queues them behind one another,
 * as one arm would: no seek ordering, no size dependence (every request
 * here is a page or a few).
 */
#include "blk_latency.h"

void blk_arm_init(struct blk_arm *a, uint64_t service)
{
    a->service = service;
    a->free_at = 0;
}

uint64_t blk_arm_issue(struct blk_arm *a, uint64_t now)
{
    if (!a->service)
        return 0;
    uint64_t start = a->free_at > now ? a->free_at : now;
    a->free_at = start + a->service;
    return a->free_at;
}
