/*
 * The child side of fuzz, shared by its two files: args.c turns a
 * generated call's kinds into argument values, run.c applies the
 * constraints, makes the calls and keeps the child's state in step.
 * The kinds of each class and the state of one child live here because
 * both files read them.
 */
#ifndef FUZZ_CHILD_H
#define FUZZ_CHILD_H

#include "fuzz.h"

#define PAGE            4096UL
#define REGION_PAGES    4                       /* the buffers */
#define REGION_BYTES    (REGION_PAGES * PAGE)
#define PLAY_PAGES      8                       /* for mmap(MAP_FIXED) and munmap */
#define PLAY_BYTES      (PLAY_PAGES * PAGE)
#define FD_SLOTS        32                      /* the kernel has 16 per process */
#define THREAD_STACKS   8
#define THREAD_STACK    8192
#define THREAD_CALLS    64                      /* at most, per thread */
#define NEWLINES        64
#define BALLAST_STRIDE  7                       /* pages between touches: jump around */
#define BALLAST_TOUCHES 4                       /* pages touched after each call */
#define USER_TOP        0x4000000000UL          /* Sv39: user space is [0, 256 GiB) */
#define KERNEL_ADDR     0xffffffc080200000UL    /* kernel text: mapped, not for users */
#define NONCANONICAL    0x8000000000000000UL
#define UNMAPPED_LOW    0x1000UL                /* below the program (linked at 0x10000) */
#define NO_SUCH_PID     (1 << 20)               /* pids count up from 1: never reached */
#define PRIVATE_NAMES   3
#define MAX_SLEEP_MS    4
#define STACK_SPAN      (64 * 1024UL)           /* what counts as the child's stack */
#define ARGV_MANY       (FL_ARG_MAX + 2)
#define LONG_PATH       (FL_PATH_MAX + 8)
#define LOW32(x)        ((int)(uint32_t)(x))
#define MIN(a, b)       ((a) < (b) ? (a) : (b))

enum fd_kind { FD_CLOSED, FD_CONSOLE, FD_RAM, FD_INITRD, FD_DIR, FD_NULL, FD_UNKNOWN, FD_KINDS };

/* kinds per class: the generator draws kind = word % fuzz_kinds[class] */
enum { I_ZERO, I_ONE, I_MINUS1, I_SMALL, I_INTMIN, I_INTMAX, I_HUGE, I_RANDOM, I_BIT,
       I_NEGSMALL, I_PAGES, I_KINDS };
enum { P_NULL, P_VALID, P_START, P_KERNEL, P_UNMAPPED, P_MISALIGNED, P_CROSSING,
       P_TEXT, P_NONCANON, P_TOP, P_ALLONES, P_RANDOM, P_STACK, P_KINDS };
enum { L_ZERO, L_ONE, L_SMALL, L_PAGE, L_PAGE1, L_REGION, L_HUGE, L_ALLONES, L_LONGMAX,
       L_2G, L_4G, L_RANDOM, L_MID, L_KINDS };
enum { D_CLOSED, D_MINUS1, D_INTMIN, D_HUGE, D_TRUNC, D_CONSOLE, D_RAM, D_INITRD, D_DIR,
       D_NULL, D_ANY, D_RANDOM, D_KINDS };
enum { Q_ZERO, Q_SELF, Q_PARENT, Q_INIT, Q_CHILD, Q_SIBLING, Q_NONE, Q_MINUS1, Q_NSELF,
       Q_NPARENT, Q_NNONE, Q_INTMIN, Q_TRUNC, Q_NCHILD, Q_NSIBLING, Q_KINDS };
enum { T_ZERO, T_SELF, T_THREAD, T_NONE, T_MINUS1, T_OTHERPROC, T_SIBLING, T_INTMIN,
       T_TRUNC, T_ONE, T_KINDS };
enum { S_ZERO, S_KILL, S_TERM, S_SEGV, S_CHLD, S_USR1, S_NSIG, S_MINUS1, S_ANY, S_HUGE,
       S_KINDS };
enum { N_NULL, N_PRIVATE, N_PROGRAM, N_ROOT, N_DEVNULL, N_CONSOLE, N_NOSUCH, N_EMPTY,
       N_LONG, N_UNTERMINATED, N_KERNEL, N_UNMAPPED, N_TRAILING, N_RELATIVE, N_KINDS };
enum { V_NULL, V_OK, V_MANY, V_KERNEL, V_BADENTRY, V_OPEN_ENDED, V_UNMAPPED,
       V_MISALIGNED, V_KINDS };
enum { M_NULL, M_PLAY, M_PLAY_MISALIGNED, M_KERNEL, M_TOP_PAGE, M_TOP, M_NONCANON,
       M_STACK, M_RANDOM, M_TEXT, M_HEAP, M_REGION, M_BALLAST, M_KINDS };
enum { Z_ZERO, Z_ONE, Z_FEW, Z_KINDS };
enum { C_OK, C_NULL, C_KERNEL, C_DATA, C_MISALIGNED, C_NONCANON, C_TOP, C_KINDS };
enum { K_OK, K_NULL, K_KERNEL, K_REGION_END, K_MISALIGNED, K_UNMAPPED, K_TEXT, K_KINDS };

/* The state of one child: what its calls so far have made. */
struct child {
    const struct fuzz_world *w;
    int      pid, tid, last_child, last_thread;
    uint8_t  fd[FD_SLOTS];                      /* enum fd_kind per descriptor */
    char    *region;                            /* REGION_BYTES, then a guard page */
    char    *play;                              /* PLAY_BYTES */
    uint64_t *ballast;                          /* memory the child keeps touching */
    long     ballast_pages;
    uint64_t salt;                              /* makes its pages' contents its own */
    char    *image_end;                         /* the end of the program's bss */
    uintptr_t stack_low;
    int      pending_stack;                     /* thread_create's, until it returns */
    char     long_path[LONG_PATH + 1];
    char    *many_argv[ARGV_MANY];
};

/* run.c: the child's state, its threads' stacks and their entry point */
extern struct child self;
extern char thread_stacks[THREAD_STACKS][THREAD_STACK];
extern int stack_busy[THREAD_STACKS];
void fuzz_thread(long seed, long calls);

/* args.c: the value of argument i of call c (system call nr) */
uint64_t value(const struct fuzz_call *c, int i, long nr);
uint64_t bad_ptr_value(uint64_t raw);
bool may_be_console(uint64_t fd);
uint64_t place_arg(int i, const char *s);
enum fd_kind path_fd_kind(int kind);

/* sigwait.c: the constraints on sigsuspend, sigtimedwait and sigaltstack
 * (see there); true if the call may end the child. */
bool constrain_signal_wait(const struct fuzz_call *c, long nr, uint64_t *a);

/* The end of the buffers: the guard page starts here. */
static inline uintptr_t region_end(void) { return (uintptr_t)self.region + REGION_BYTES; }

#endif
