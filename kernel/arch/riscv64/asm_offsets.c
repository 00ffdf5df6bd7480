/*
 * Offsets into portable structures that the riscv64 assembly reads,
 * generated at build time: this file is compiled to assembly only, never
 * linked, and the Makefile turns each DEFINE line of that assembly into
 * a #define in asm_offsets.h in the build directory. Adding a field to
 * struct thread or struct proc thus moves the numbers with it.
 *
 * The layouts the port defines itself (struct trapframe, struct kframe)
 * keep their offsets beside the structs in <arch/arch.h>, checked there.
 */
#include "proc.h"
#include "cpu.h"
#include "signal.h"
#include <faultline/abi.h>

/* The marker the Makefile looks for: "@ASM_OFFSET NAME VALUE". */
#define DEFINE(name, value) \
    __asm__ volatile("\n.ascii \"@ASM_OFFSET " #name " %0\"" :: "i"((long)(value)))

_Static_assert(sizeof(((struct proc *)0)->killed) == 4, "usercopy.S loads killed as a word");

void asm_offsets(void);
void asm_offsets(void)
{
    /* struct cpu: the light gethart (trap.S) */
    DEFINE(CPU_ID, offsetof(struct cpu, id));

    /* the fast sigreturn (usercopy.S): the mask it restores and the
     * tests user_return_prepare would make */
    DEFINE(THREAD_PROC, offsetof(struct thread, proc));
    DEFINE(THREAD_SIG_PENDING, offsetof(struct thread, sig_pending));
    DEFINE(THREAD_SIG_BLOCKED, offsetof(struct thread, sig_blocked));
    DEFINE(PROC_KILLED, offsetof(struct proc, killed));
    DEFINE(PROC_SIG_PENDING, offsetof(struct proc, sig_pending));
    /* the signals no mask may hold (SIGKILL); a restored mask drops them */
    DEFINE(SIG_UNBLOCKABLE, FL_SIGMASK(SIGKILL));

    /* struct fl_sigframe (include/faultline/abi.h), written and read by
     * usercopy.S */
    DEFINE(SF_MAGIC, offsetof(struct fl_sigframe, magic));
    DEFINE(SF_REGS, offsetof(struct fl_sigframe, regs));
    DEFINE(SF_SIG, offsetof(struct fl_sigframe, sig));
    DEFINE(SF_ADDR, offsetof(struct fl_sigframe, addr));
    DEFINE(SF_BLOCKED, offsetof(struct fl_sigframe, blocked));
    DEFINE(SF_SIZE, sizeof(struct fl_sigframe));
}
