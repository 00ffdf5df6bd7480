#include "sleeplock.h"
#include "proc.h"
#include "printk.h"

void sleeplock_init(struct sleeplock *l, const char *name, enum lock_rank rank)
{
    spin_init(&l->guard, name, LOCK_RANK_GUARD);
    l->state = 0;
    l->rank = (uint16_t)rank;
    l->holder = NULL;
    l->name = name;
}

static inline bool cas(uint32_t *state, uint32_t *expect, uint32_t want)
{
    return __atomic_compare_exchange_n(state, expect, want, false, __ATOMIC_ACQ_REL,
                                       __ATOMIC_RELAXED);
}

/* The lock just taken: its holder noted (and in a debug build its rank). */
static inline __attribute__((always_inline)) void now_held(struct sleeplock *l, bool fresh)
{
    (void)fresh;
    l->holder = current_thread();
#ifdef FL_DEBUG
    l->fresh = fresh;
    lockrank_sleep_taken(l);
#endif
}

/* Under the guard: take the lock, or count ourselves a waiter and sleep
 * until a release wakes us, then look again. A release that cleared
 * HELD before our count went in made that compare-and-swap fail, so we
 * see the lock free; one that comes after sees our count and wakes us
 * under the guard, which we hold until we are asleep. */
/* Out of line, and the last thing the acquire does (the holder is noted
 * here too): the uncontended acquire (every fault takes a space's lock)
 * then needs no stack frame or saved registers, and reaches this by a
 * tail call. */
static __attribute__((noinline)) void acquire_slow(struct sleeplock *l, bool fresh)
{
    spin_lock(&l->guard);
    uint32_t s = __atomic_load_n(&l->state, __ATOMIC_RELAXED);
    for (;;) {
        if (!(s & SLEEPLOCK_HELD)) {
            if (cas(&l->state, &s, s | SLEEPLOCK_HELD))
                break;
            continue;
        }
        if (!cas(&l->state, &s, s + SLEEPLOCK_WAITER))
            continue;
        sleep_on(l, &l->guard);
        s = __atomic_sub_fetch(&l->state, SLEEPLOCK_WAITER, __ATOMIC_ACQ_REL);
    }
    spin_unlock(&l->guard);
    now_held(l, fresh);
}

/* Inlined into both callers, so a release build's acquire is what it was. */
static inline __attribute__((always_inline)) void acquire(struct sleeplock *l, bool fresh)
{
    uint32_t free_state = 0;
    if (__builtin_expect(cas(&l->state, &free_state, SLEEPLOCK_HELD), 1)) {
        now_held(l, fresh);
        return;
    }
    acquire_slow(l, fresh);
}

void sleeplock_acquire(struct sleeplock *l)
{
#ifdef FL_DEBUG
    lockrank_check_sleep(l);
#endif
    acquire(l, false);
}

void sleeplock_acquire_fresh(struct sleeplock *l)
{
    acquire(l, true);
}

/* Someone waits: free the lock and wake them under the guard. wakeup()
 * scans the sleepers; an uncontended release does not pay for it, nor for
 * this function's frame. */
static __attribute__((noinline)) void release_slow(struct sleeplock *l)
{
    spin_lock(&l->guard);
    __atomic_fetch_and(&l->state, ~SLEEPLOCK_HELD, __ATOMIC_RELEASE);
    wakeup(l);
    spin_unlock(&l->guard);
}

void sleeplock_release(struct sleeplock *l)
{
    if (!(__atomic_load_n(&l->state, __ATOMIC_RELAXED) & SLEEPLOCK_HELD) ||
        l->holder != current_thread())
        panic("sleeplock %s: released by a thread that does not hold it", l->name);
#ifdef FL_DEBUG
    lockrank_sleep_released(l);
#endif
    l->holder = NULL;
    uint32_t held_alone = SLEEPLOCK_HELD;
    if (cas(&l->state, &held_alone, 0))
        return;
    release_slow(l);
}

bool sleeplock_try(struct sleeplock *l)
{
    uint32_t free_state = 0;
    bool got = cas(&l->state, &free_state, SLEEPLOCK_HELD);
    if (got) {
        l->holder = current_thread();
#ifdef FL_DEBUG
        l->fresh = false;
        lockrank_sleep_taken(l);
#endif
    }
    return got;
}

bool sleeplock_held_by_me(const struct sleeplock *l)
{
    /* Only the holder itself can see its own name here: nobody else can
     * make it true or false behind the caller's back. */
    return (__atomic_load_n(&l->state, __ATOMIC_ACQUIRE) & SLEEPLOCK_HELD) &&
           l->holder == current_thread();
}
