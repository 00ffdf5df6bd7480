/*
 * Program entry. The kernel enters _start with a0 = argc, a1 = argv and a
 * 16-byte aligned sp, which is exactly how main(argc, argv) wants them.
 */
    .section .text.start, "ax", @progbits
    .globl _start
    .type _start, @function
_start:
    /* A zero frame pointer and return address end every backtrace here. */
    li    fp, 0
    li    ra, 0
    call  main
    call  exit          /* a0 already holds main's return value */
    unimp               /* exit does not return; trap loudly if it ever does */
    .size _start, . - _start
