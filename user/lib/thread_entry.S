/*
 * First code of a thread made by thread_create(). The kernel starts it
 * with a0 = fn, a1 = arg and no return address, so this frame calls
 * fn(arg) and hands fn's return value to thread_exit.
 */
    .section .text.thread_entry, "ax", @progbits
    .globl thread_entry
    .type thread_entry, @function
thread_entry:
    li    fp, 0         /* end of the backtrace, as in _start */
    li    ra, 0
    mv    t0, a0
    mv    a0, a1
    jalr  t0
    call  thread_exit   /* a0 = fn's return value */
    unimp
    .size thread_entry, . - thread_entry
