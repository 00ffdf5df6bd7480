/*
 * What the files of kernel/ulf/ share: the handler, client, wait and
 * grant records and the one lock over them.
 *
 *   msg.c     a suspended thread's message, ulf_recv, ulf_resume, ulf_regs
 *   grant.c   granted frames: ulf_grant, ulf_load, ulf_unload, their return
 *   attach.c  ulf_attach, and what exec and exit do to handlers and clients
 *
 * Lock: "ulf" (spin, rank 45, kernel/include/lockrank.h) guards every
 * record here. It is taken with nothing held, or under a process's lock
 * (attach, to see the process alive), or under an address space's lock
 * (load, unload and the frames a space drops); under it only the thread
 * locks of sleep and wakeup are taken. Nobody sleeps holding it except
 * through sleep_on, which lets it go.
 */
#ifndef FAULTLINE_ULF_INTERNAL_H
#define FAULTLINE_ULF_INTERNAL_H

#include "ulf.h"
#include "proc.h"
#include "spinlock.h"
#include <faultline/abi.h>

/* Granted frames in the whole system: FL_ULF_FRAME_QUOTA per handler,
 * for a few handlers at once. */
#define ULF_GRANTS_MAX (2 * FL_ULF_FRAME_QUOTA)
/* Free frames a grant leaves to everyone else, beyond the reserve the
 * kernel keeps for page tables and stacks. */
#define ULF_GRANT_SPARE_FRAMES 64

extern struct spinlock ulf_lock;

/* One per process that handles faults or traps of others (by slot). */
struct ulf_handler {
    struct proc *proc;          /* NULL: slot unused */
    int nclients;               /* processes it manages */
    int nframes;                /* granted records it holds (the quota) */
    int nreceivers;             /* its threads asleep in ulf_recv */
    struct thread *receiver;    /* the latest of them (woken directly) */
    struct ulf_wait *head, *tail;  /* messages not yet received */
    struct ulf_wait *taken;     /* received, not yet answered */
    struct ulf_client *last_client;  /* of the last load or unload (a hint) */
    struct aspace *pool_as;     /* where its frames are held (its space at ulf_grant) */
};

/* One per managed process (by slot). */
struct ulf_client {
    struct proc *proc;          /* NULL: slot unused */
    struct ulf_handler *h;      /* NULL once its handler is gone: faults kill */
    bool heap;                  /* its heap is managed, after exec too */
    bool space;                 /* and its stack and anonymous mappings (FL_ULF_SPACE) */
    bool syscalls;              /* its system calls go to the handler */
    struct aspace *as;          /* what handler calls may reach; NULL: exiting */
    int busy;                   /* handler calls working in as */
};

enum ulf_wait_state {
    W_IDLE,       /* not waiting */
    W_QUEUED,     /* on its handler's queue */
    W_TAKEN,      /* a handler thread has the message */
    W_ANSWERED,   /* how and value are set */
    W_ORPHANED,   /* the handler went away */
};

/* One per thread slot: the message of a suspended thread. */
struct ulf_wait {
    struct ulf_wait *next;
    struct ulf_handler *h;
    struct thread *t;
    enum ulf_wait_state state;
    struct fl_ulf_msg msg;
    uint64_t sent_at;           /* trap entry: ulf.transfer / trap.forward start */
    int how;
    long value;
    uint64_t answered_at;       /* ulf_resume entry: ulf.resume / trap.resume start */
};

/* A granted frame. */
struct ulf_grant {
    paddr_t pa;                 /* 0: record free */
    struct ulf_handler *h;      /* its holder; NULL once the handler is gone */
    struct aspace *pool_as;     /* its page in the handler's pool, NULL once dropped */
    vaddr_t pool_va;
    struct aspace *loan_as;     /* where it is loaded (one page at a time), or NULL */
    vaddr_t loan_va;
};

extern struct ulf_handler ulf_handlers[MAX_PROCS];
extern struct ulf_client ulf_clients[MAX_PROCS];

static inline struct ulf_client *client_of(const struct proc *p)
{
    return &ulf_clients[p - procs];
}

/* The calling process's handler record, made on first use (ulf lock held). */
struct ulf_handler *ulf_handler_self(void);
/* The handler record of the caller if it has one, else NULL (lock held). */
struct ulf_handler *ulf_handler_of(const struct proc *p);

/* The space of pid if the caller's handler manages it, with a use taken
 * (ulf_client_put gives it back); NULL and *err otherwise. */
struct ulf_client *ulf_client_get(int pid, int *err);
void ulf_client_put(struct ulf_client *c);

/* Wakes the receivers of h (lock held). */
void ulf_wake_receivers(struct ulf_handler *h);
/* The handler is gone: every thread waiting on it learns so (lock held). */
void ulf_orphan_waiters(struct ulf_handler *h);
/* Its granted frames are no longer its own (lock held). */
void ulf_grants_orphan(struct ulf_handler *h);

#endif
