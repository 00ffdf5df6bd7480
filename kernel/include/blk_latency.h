/*
 * The service-time model of a block device (kernel/dev/blk_latency.c):
 * one arm that serves requests one at a time, each for a fixed service
 * time. The driver asks it, as a request is issued, when that request may
 * complete; the device's own (much earlier, under QEMU) completion is held
 * back until then. Pure arithmetic in arch time units; host unit tested.
 */
#ifndef FAULTLINE_BLK_LATENCY_H
#define FAULTLINE_BLK_LATENCY_H

#include "types.h"

struct blk_arm {
    uint64_t service;    /* time one request takes; 0: no model, completions as they come */
    uint64_t free_at;    /* when the arm is done with every request issued so far */
};

/* A model with this service time (0 turns it off). */
void blk_arm_init(struct blk_arm *a, uint64_t service);

/* A request issued at `now`: its service starts when the arm is free (now,
 * or when the request before it ends) and lasts a service time. Returns
 * when it ends, the earliest its completion may reach its waiter; 0 with
 * the model off. */
uint64_t blk_arm_issue(struct blk_arm *a, uint64_t now);

/* Whether a completion seen at `now` for a request due at `due` must
 * still be held back. */
static inline bool blk_arm_early(uint64_t due, uint64_t now)
{
    return due > now;
}

#endif
