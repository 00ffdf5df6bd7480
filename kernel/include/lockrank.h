/*
 * Lock ranks: the lock order of docs/architecture.md ("Lock order"), as
 * numbers the code carries. Every spinlock and sleep lock is given one at
 * init (SPINLOCK_INIT, spin_init, sleeplock_init). The debug build
 * (make DEBUG=1, FL_DEBUG) checks each acquisition against the locks
 * already held, kernel/lock/lockrank.c; a release build only stores the number.
 *
 * The rule: a lock may be taken only if its rank is strictly greater than
 * the rank of every lock held, counting the spinlocks held by this hart and
 * the sleep locks held by the running thread. Consequences:
 *  - two locks of one rank never nest, so two instances of one kind of
 *    lock (two threads' locks, two processes' locks) are never held
 *    together, except for the exemptions below;
 *  - a try (sleeplock_try) never waits, so it cannot close a cycle: it is
 *    not checked, but once it succeeds the lock counts as held;
 *  - a lock nobody else can reach yet (the new child's space in fork) is
 *    taken with sleeplock_acquire_fresh, which is not checked either.
 *
 * Ranks are spaced by ten so that a new lock fits between two without
 * renumbering the others. To add a lock:
 *  1. pick the rank its nesting needs: above every lock held when it is
 *     taken, below every lock taken while it is held; reuse a rank if it
 *     never nests with the locks already there;
 *  2. add an X() row here (constant, rank, kind, the name given at init);
 *  3. add its name to that rank's row of the table in docs/architecture.md
 *     (tests/test_lockrank.py checks that the two agree);
 *  4. init it with the constant, then run `make test-debug`.
 */
#ifndef FAULTLINE_LOCKRANK_H
#define FAULTLINE_LOCKRANK_H

/* X(CONSTANT, rank, kind, name): one row per lock name, outermost first.
 * kind is SPIN or SLEEP; name is the string the lock is given at init
 * (panics print it), except GUARD: every sleep lock's guard spinlock
 * carries its sleep lock's name. */
#define LOCK_RANK_TABLE(X)                      \
    X(FS,       10,  SLEEP, "fs")               \
    X(ASPACE,   20,  SLEEP, "aspace")           \
    X(WAIT,     30,  SPIN,  "wait")             \
    X(PROC,     40,  SPIN,  "proc")             \
    X(ULF,      45,  SPIN,  "ulf")              \
    X(CONSOLE,  50,  SPIN,  "console")          \
    X(SLEEP,    50,  SPIN,  "sleep")            \
    X(GUARD,    50,  SPIN,  "guard")            \
    X(BLK,      50,  SPIN,  "blk")              \
    X(TLBWAIT,  50,  SPIN,  "tlbwait")          \
    X(TRANSIT,  50,  SPIN,  "transit")          \
    X(PAGECTL,  50,  SPIN,  "pagectl")          \
    X(PDMAP,    50,  SPIN,  "pdmap")            \
    X(THREAD,   60,  SPIN,  "thread")           \
    X(FDTABLE,  70,  SPIN,  "fdtable")          \
    X(FTABLE,   80,  SPIN,  "ftable")           \
    X(ASPACES,  80,  SPIN,  "aspaces")          \
    X(KSTACK,   80,  SPIN,  "kstack")           \
    X(FRAMES,   90,  SPIN,  "frames")           \
    X(SWAP,     100, SPIN,  "swap")

enum lock_rank {
    LOCK_RANK_UNSET = 0,        /* never given one: taking it panics (debug) */
#define LOCK_RANK_ENUM(c, r, k, n) LOCK_RANK_##c = (r),
    LOCK_RANK_TABLE(LOCK_RANK_ENUM)
#undef LOCK_RANK_ENUM
};

/* Most locks one hart (spinlocks) or one thread (sleep locks) holds at
 * once in the debug build; the deepest nesting today is three. */
#define LOCKRANK_MAX_HELD   8

#ifdef FL_DEBUG
/* The checks (kernel/lock/lockrank.c), debug build only: a release build calls
 * none of them, so its lock paths are what they were before ranks. */
struct cpu;
struct spinlock;
struct sleeplock;

/* Before spinning for l on c (interrupts off): panics naming both locks
 * if l may not be taken now. */
void lockrank_check_spin(struct cpu *c, const struct spinlock *l);
/* l was taken / is being released on c (interrupts off). */
void lockrank_spin_taken(struct cpu *c, const struct spinlock *l);
void lockrank_spin_released(struct cpu *c, const struct spinlock *l);
/* The same for the running thread's sleep locks. */
void lockrank_check_sleep(const struct sleeplock *l);
void lockrank_sleep_taken(const struct sleeplock *l);
void lockrank_sleep_released(const struct sleeplock *l);
#endif

#endif
