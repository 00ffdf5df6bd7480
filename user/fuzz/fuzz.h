/*
 * fuzz: random system calls with hostile arguments, from forked children.
 *
 * The work is split into batches of calls. Batch k's calls are a pure
 * function of (seed, k): gen.c draws, for each call, the system call and
 * for each argument a *kind* (NULL, kernel address, closed fd, pid 1, ...)
 * and a raw random word. Only then does args.c turn kinds into values, and
 * values that depend on the running process (which fds are open, its pid,
 * its last child) come from the process's state, never from the generator.
 * So the same seed always yields the same calls, which `fuzz -d` checks by
 * printing a checksum of them without making any.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include "ulib.h"

#define FUZZ_MAX_ARGS    6

/* Argument classes: what an argument slot means to the kernel. */
enum arg_class {
    A_NONE,
    A_INT,        /* a number: flags, indexes, status, increments */
    A_PTR_IN,     /* memory the kernel reads */
    A_PTR_OUT,    /* memory the kernel writes */
    A_LEN,        /* a byte or entry count */
    A_FD,
    A_PID,        /* a pid or process group id (negative: a group, for kill) */
    A_TID,
    A_SIG,
    A_PATH,       /* a NUL-terminated path */
    A_ARGV,       /* exec's argument vector */
    A_ADDR,       /* an address for mmap, munmap, vmctl */
    A_MS,         /* sleep's milliseconds */
    A_CODE,       /* thread_create's pc */
    A_STACK,      /* thread_create's sp */
    A_CLASSES
};

/* One generated call: all of it comes from the generator. */
struct fuzz_call {
    int      spec;                        /* index into fuzz_specs */
    uint8_t  kind[FUZZ_MAX_ARGS];         /* per-class kind, see child.h */
    uint64_t raw[FUZZ_MAX_ARGS];          /* random word for the value */
};

/* How a call may end the child. */
enum fate {
    F_RETURNS,    /* returns to the caller */
    F_MAY_END,    /* may end or kill the child (exit, exec, self-signals, ...) */
};

struct fuzz_spec {
    const char *name;
    long        nr;                       /* SYS_*, or FUZZ_NR_BAD */
    int         weight;                   /* relative frequency */
    enum fate   fate;
    uint8_t     args[FUZZ_MAX_ARGS];      /* enum arg_class */
};

#define FUZZ_NR_BAD  (-1L)   /* a number the kernel does not have: chosen per call */

extern const struct fuzz_spec fuzz_specs[];
extern const int fuzz_nspecs;

/* Number of kinds the generator draws from for each class (args.c). */
extern const uint8_t fuzz_kinds[A_CLASSES];

/* The generator of one batch. */
struct fuzz_gen {
    uint64_t state;
    uint64_t hash;        /* running checksum of every generated call */
};

void     gen_start(struct fuzz_gen *g, uint64_t seed, uint64_t batch);
void     gen_next(struct fuzz_gen *g, struct fuzz_call *c);
uint64_t gen_word(struct fuzz_gen *g);

/* What the parent tells a child (copied by fork: no shared memory). */
#define FUZZ_MAX_CHILDREN 16
struct fuzz_world {
    int parent_pid;       /* must not get SIGKILL: it counts the results */
    int shell_pid;        /* the parent's parent: a group the children may not join */
    int siblings[FUZZ_MAX_CHILDREN];      /* pids of the other running children, 0 = none */
    int nsiblings;
};

/* Child side (run.c): makes calls [from, to) of batch `batch` and exits.
 * Between calls it writes and checks one page of ballast_kib KiB of its
 * own memory (the ballast), so that the memory managers have work and a
 * page that comes back wrong is seen.
 * Before a call that may end it, and every FUZZ_CHECKPOINT_EVERY calls,
 * it records in the file checkpoint_path how many calls of the batch are
 * made (counting the one about to be made if that may end it). */
_Noreturn void run_batch(const struct fuzz_world *w, uint64_t seed, uint64_t batch,
                         long from, long to, const char *checkpoint_path, bool own_session,
                         long ballast_kib);

#define FUZZ_CHECKPOINT_EVERY 128
#define FUZZ_EXIT_NO_MEMORY   3     /* a child could not map its buffers */
#define FUZZ_EXIT_CORRUPT     4     /* a child's memory did not hold what it wrote */
#define FUZZ_MAX_BALLAST_KIB  16384
#define FUZZ_MAX_SPECS        64    /* room for per-call counts: fuzz_nspecs fits */

/* Every name a call may create (in ramfs): the parent removes them at the end. */
extern const char *const fuzz_names[];
extern const int fuzz_nnames;

#endif
