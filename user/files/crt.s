# The runtime of programs compiled by cc: the entry point and the
# functions every program may call without declaring them. Each is one
# faultline system call (include/faultline/syscall.h): the number in a7,
# the arguments in a0..a5, the result (or -errno) back in a0.
# putchar and getchar move one byte through a slot on the stack.

	.text
	.globl _start
_start:                         # the kernel passes argc in a0, argv in a1
	li fp, 0
	call main
	call exit                   # main's result is the exit status

	.globl exit
exit:
	li a7, 2                    # SYS_exit
	ecall
	j exit

	.globl read
read:
	li a7, 10                   # SYS_read
	ecall
	ret

	.globl write
write:
	li a7, 11                   # SYS_write
	ecall
	ret

	.globl open
open:
	li a7, 12                   # SYS_open
	ecall
	ret

	.globl close
close:
	li a7, 13                   # SYS_close
	ecall
	ret

	.globl putchar
putchar:                        # write(1, &c, 1); returns c, or -errno
	addi sp, sp, -16
	sb a0, 0(sp)
	sd a0, 8(sp)
	li a0, 1
	mv a1, sp
	li a2, 1
	li a7, 11
	ecall
	blt a0, zero, .Lputchar_out
	ld a0, 8(sp)
	andi a0, a0, 255
.Lputchar_out:
	addi sp, sp, 16
	ret

	.globl getchar
getchar:                        # read(0, &c, 1); returns c, or -1 at the end
	addi sp, sp, -16
	li a0, 0
	mv a1, sp
	li a2, 1
	li a7, 10
	ecall
	li t0, 1
	bne a0, t0, .Lgetchar_end
	lbu a0, 0(sp)
	addi sp, sp, 16
	ret
.Lgetchar_end:
	li a0, -1
	addi sp, sp, 16
	ret
