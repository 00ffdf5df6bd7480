/*
 * sigregs_run(): a test helper that loads a distinct pattern into every
 * register but sp, executes an illegal instruction (the caller's SIGILL
 * handler must step the saved pc past it), and stores what every register
 * holds afterwards into out[n] (n = 1..31, out[2] = sp). The sp before the
 * trap is left in sigregs_sp_before. Shared by C and assembly.
 */
#ifndef SIGREGS_H
#define SIGREGS_H

#define SIGREGS_NREGS           32
#define SIGREGS_PATTERN(n)      (0x5a5a5a5a00000000 + ((n) << 24) + (n))
#define SIGREGS_TRAP_INSN_LEN   4     /* the 32-bit form of unimp */

#ifndef __ASSEMBLY__
#include <stdint.h>
void sigregs_run(uint64_t out[SIGREGS_NREGS]);
/* The same around a system call instead of the illegal instruction:
 * number nr, a0 = arg0, a1 = arg1, the other registers the pattern; out
 * as for sigregs_run (out[10] the call's result). */
void sigregs_syscall(uint64_t out[SIGREGS_NREGS], long nr, long arg0, long arg1);
extern uint64_t sigregs_sp_before;
#endif

#endif
