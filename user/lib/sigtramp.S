/*
 * The signal trampoline: the kernel enters a handler with ra pointing
 * here (the restorer given to sigaction), so a handler's plain return
 * lands here with sp back at its signal frame, where sigreturn reads it.
 */
#include <faultline/syscall.h>

    .section .text.__sigreturn_trampoline, "ax", @progbits
    .globl __sigreturn_trampoline
    .type __sigreturn_trampoline, @function
__sigreturn_trampoline:
    li    a7, SYS_sigreturn
    ecall
    unimp               /* sigreturn never returns here */
    .size __sigreturn_trampoline, . - __sigreturn_trampoline
