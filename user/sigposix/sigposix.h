/*
 * sigposix: what its three files share (main.c: the runner, kill(pid, 0),
 * sigsuspend, pause and the ping-pongs; frames.c: SA_SIGINFO and
 * sigaltstack; timedwait.c: sigtimedwait and bad arguments).
 */
#ifndef SIGPOSIX_H
#define SIGPOSIX_H

#include "ulib.h"
#include "testrun.h"

#define KERNEL_ADDR       0xffffffc080200000UL   /* mapped, but not for users */
#define BAD_SIG           NSIG
#define BAD_FLAGS         0x40
#define PINGPONG_ROUNDS   2000
#define MS_PER_ROUND_MAX  5        /* the runner's deadline for -r: generous */
#define SETTLE_MS         100      /* time for a child to reach its wait */
#define STUCK_MS          300      /* a child still waiting after this is stuck */
#define WAIT_MS           50       /* sigtimedwait's timeout in the timeout test */
#define TICK_MS           10       /* a timeout may end up to a tick early */
#define NS_PER_MS         1000000L
#define NS_PER_SEC        1000000000L
#define PAGE              4096UL
#define ALTSTACK_BYTES    SIGSTKSZ
#define OVERFLOW_OK       42       /* the overflow child's status when its handler ran */
#define STORE_OFFSET      8
#define LONG_MAX_DEPTH    (1L << 40)
#define FRAME_PAD         256      /* stack each level of the overflowing recursion takes */
#define INSN_LOW_BITS     3        /* low bits 11: a 4-byte instruction, else a 2-byte one */
#define FULL_LEN          4
#define COMPRESSED_LEN    2
#define STACK_ALIGN       16
#define UNKNOWN_SA_FLAG   0x100    /* no FL_SA_* */
#define MAIN_HART         0
#define OTHER_HART        1

extern long rounds;              /* round trips of each ping-pong (-r) */

/* State the handlers leave for the tests (main.c). */
extern volatile int hits[NSIG];
extern volatile struct fl_siginfo last_info;
extern volatile uint64_t last_sp, handler_mask;

void counting_handler(int sig, uint64_t addr, struct fl_sigframe *f);
/* Counts, keeps the siginfo and the mask the handler runs with. */
void info_handler(int sig, struct fl_siginfo *info, struct fl_sigframe *f);
void install(int sig, sighandler_t h);
uint64_t get_mask(void);
void set_mask(uint64_t mask);
uint64_t pending_set(void);
/* Forks a child that sleeps ms (pinned to hart unless -1), then sends sig
 * to its parent and exits 0 if that worked. */
int  delayed_sender(int sig, unsigned long ms, int hart);
void reap_ok(int pid);           /* waits for pid; fails unless it exited 0 */
unsigned nharts(void);

/* The tests of frames.c and timedwait.c. */
void siginfo(void);
void altstackuse(void);
void stackoverflow(void);
void altstackinherit(void);
void timedwaittake(void);
void timedwaittimeout(void);
void timedwaitintr(void);
void timedwaitthread(void);
void badinputs(void);

#endif
