	.file	"asm_offsets.c"
	.option nopic
	.attribute arch, "rv64i2p1_m2p0_a2p1_c2p0_zicsr2p0_zifencei2p0"
	.attribute unaligned_access, 0
	.attribute stack_align, 16
	.text
.Ltext0:
	.cfi_sections	.debug_frame
	.file 0 "/work/wt/forkfast" "kernel/arch/riscv64/asm_offsets.c"
	.align	1
	.globl	asm_offsets
	.type	asm_offsets, @function
asm_offsets:
.LFB38:
	.file 1 "kernel/arch/riscv64/asm_offsets.c"
	.loc 1 24 1
	.cfi_startproc
	.loc 1 26 5
	.loc 1 24 1 is_stmt 0
	addi	sp,sp,-16
	.cfi_def_cfa_offset 16
	sd	s0,8(sp)
	.cfi_offset 8, -8
	addi	s0,sp,16
	.cfi_def_cfa 8, 0
	.loc 1 26 5
 #APP
# 26 "kernel/arch/riscv64/asm_offsets.c" 1
	
.ascii "@ASM_OFFSET CPU_ID 0"
# 0 "" 2
	.loc 1 30 5 is_stmt 1
# 30 "kernel/arch/riscv64/asm_offsets.c" 1
	
.ascii "@ASM_OFFSET THREAD_PROC 360"
# 0 "" 2
	.loc 1 31 5
# 31 "kernel/arch/riscv64/asm_offsets.c" 1
	
.ascii "@ASM_OFFSET THREAD_SIG_PENDING 552"
# 0 "" 2
	.loc 1 32 5
# 32 "kernel/arch/riscv64/asm_offsets.c" 1
	
.ascii "@ASM_OFFSET THREAD_SIG_BLOCKED 560"
# 0 "" 2
	.loc 1 33 5
# 33 "kernel/arch/riscv64/asm_offsets.c" 1
	
.ascii "@ASM_OFFSET PROC_KILLED 180"
# 0 "" 2
	.loc 1 34 5
# 34 "kernel/arch/riscv64/asm_offsets.c" 1
	
.ascii "@ASM_OFFSET PROC_SIG_PENDING 1248"
# 0 "" 2
	.loc 1 36 5
# 36 "kernel/arch/riscv64/asm_offsets.c" 1
	
.ascii "@ASM_OFFSET SIG_UNBLOCKABLE 512"
# 0 "" 2
	.loc 1 40 5
# 40 "kernel/arch/riscv64/asm_offsets.c" 1
	
.ascii "@ASM_OFFSET SF_MAGIC 0"
# 0 "" 2
	.loc 1 41 5
# 41 "kernel/arch/riscv64/asm_offsets.c" 1
	
.ascii "@ASM_OFFSET SF_REGS 8"
# 0 "" 2
	.loc 1 42 5
# 42 "kernel/arch/riscv64/asm_offsets.c" 1
	
.ascii "@ASM_OFFSET SF_SIG 264"
# 0 "" 2
	.loc 1 43 5
# 43 "kernel/arch/riscv64/asm_offsets.c" 1
	
.ascii "@ASM_OFFSET SF_ADDR 272"
# 0 "" 2
	.loc 1 44 5
# 44 "kernel/arch/riscv64/asm_offsets.c" 1
	
.ascii "@ASM_OFFSET SF_BLOCKED 280"
# 0 "" 2
	.loc 1 45 5
# 45 "kernel/arch/riscv64/asm_offsets.c" 1
	
.ascii "@ASM_OFFSET SF_SIZE 288"
# 0 "" 2
	.loc 1 46 1 is_stmt 0
 #NO_APP
	ld	s0,8(sp)
	.cfi_restore 8
	.cfi_def_cfa 2, 16
	addi	sp,sp,16
	.cfi_def_cfa_offset 0
	jr	ra
	.cfi_endproc
.LFE38:
	.size	asm_offsets, .-asm_offsets
.Letext0:
	.file 2 "/usr/lib/gcc/riscv64-unknown-elf/12.2.0/include/stdint-gcc.h"
	.section	.debug_info,"",@progbits
.Ldebug_info0:
	.4byte	0xa5
	.2byte	0x5
	.byte	0x1
	.byte	0x8
	.4byte	.Ldebug_abbrev0
	.byte	0x2
	.4byte	.LASF13
	.byte	0x1d
	.4byte	.LASF0
	.4byte	.LASF1
	.8byte	.Ltext0
	.8byte	.Letext0-.Ltext0
	.4byte	.Ldebug_line0
	.byte	0x1
	.byte	0x1
	.byte	0x6
	.4byte	.LASF2
	.byte	0x1
	.byte	0x2
	.byte	0x5
	.4byte	.LASF3
	.byte	0x3
	.byte	0x4
	.byte	0x5
	.string	"int"
	.byte	0x1
	.byte	0x8
	.byte	0x5
	.4byte	.LASF4
	.byte	0x1
	.byte	0x1
	.byte	0x8
	.4byte	.LASF5
	.byte	0x1
	.byte	0x2
	.byte	0x7
	.4byte	.LASF6
	.byte	0x1
	.byte	0x4
	.byte	0x7
	.4byte	.LASF7
	.byte	0x4
	.4byte	.LASF14
	.byte	0x2
	.byte	0x37
	.byte	0x19
	.4byte	0x6b
	.byte	0x1
	.byte	0x8
	.byte	0x7
	.4byte	.LASF8
	.byte	0x1
	.byte	0x8
	.byte	0x5
	.4byte	.LASF9
	.byte	0x1
	.byte	0x10
	.byte	0x4
	.4byte	.LASF10
	.byte	0x1
	.byte	0x1
	.byte	0x8
	.4byte	.LASF11
	.byte	0x1
	.byte	0x1
	.byte	0x2
	.4byte	.LASF12
	.byte	0x5
	.4byte	.LASF15
	.byte	0x1
	.byte	0x17
	.byte	0x6
	.8byte	.LFB38
	.8byte	.LFE38-.LFB38
	.byte	0x1
	.byte	0x9c
	.byte	0
	.section	.debug_abbrev,"",@progbits
.Ldebug_abbrev0:
	.byte	0x1
	.byte	0x24
	.byte	0
	.byte	0xb
	.byte	0xb
	.byte	0x3e
	.byte	0xb
	.byte	0x3
	.byte	0xe
	.byte	0
	.byte	0
	.byte	0x2
	.byte	0x11
	.byte	0x1
	.byte	0x25
	.byte	0xe
	.byte	0x13
	.byte	0xb
	.byte	0x3
	.byte	0x1f
	.byte	0x1b
	.byte	0x1f
	.byte	0x11
	.byte	0x1
	.byte	0x12
	.byte	0x7
	.byte	0x10
	.byte	0x17
	.byte	0
	.byte	0
	.byte	0x3
	.byte	0x24
	.byte	0
	.byte	0xb
	.byte	0xb
	.byte	0x3e
	.byte	0xb
	.byte	0x3
	.byte	0x8
	.byte	0
	.byte	0
	.byte	0x4
	.byte	0x16
	.byte	0
	.byte	0x3
	.byte	0xe
	.byte	0x3a
	.byte	0xb
	.byte	0x3b
	.byte	0xb
	.byte	0x39
	.byte	0xb
	.byte	0x49
	.byte	0x13
	.byte	0
	.byte	0
	.byte	0x5
	.byte	0x2e
	.byte	0
	.byte	0x3f
	.byte	0x19
	.byte	0x3
	.byte	0xe
	.byte	0x3a
	.byte	0xb
	.byte	0x3b
	.byte	0xb
	.byte	0x39
	.byte	0xb
	.byte	0x27
	.byte	0x19
	.byte	0x11
	.byte	0x1
	.byte	0x12
	.byte	0x7
	.byte	0x40
	.byte	0x18
	.byte	0x7a
	.byte	0x19
	.byte	0
	.byte	0
	.byte	0
	.section	.debug_aranges,"",@progbits
	.4byte	0x2c
	.2byte	0x2
	.4byte	.Ldebug_info0
	.byte	0x8
	.byte	0
	.2byte	0
	.2byte	0
	.8byte	.Ltext0
	.8byte	.Letext0-.Ltext0
	.8byte	0
	.8byte	0
	.section	.debug_line,"",@progbits
.Ldebug_line0:
	.section	.debug_str,"MS",@progbits,1
.LASF15:
	.string	"asm_offsets"
.LASF7:
	.string	"unsigned int"
.LASF14:
	.string	"uint64_t"
.LASF5:
	.string	"unsigned char"
.LASF2:
	.string	"signed char"
.LASF6:
	.string	"short unsigned int"
.LASF3:
	.string	"short int"
.LASF13:
	.string	"GNU C11 12.2.0 -mabi=lp64 -mcmodel=medany -misa-spec=20191213 -march=rv64imac_zicsr_zifencei -g -O2 -std=c11 -ffreestanding -fno-common -fno-stack-protector -fno-pie -fno-omit-frame-pointer"
.LASF12:
	.string	"_Bool"
.LASF4:
	.string	"long int"
.LASF10:
	.string	"long double"
.LASF8:
	.string	"long unsigned int"
.LASF11:
	.string	"char"
.LASF9:
	.string	"long long int"
	.section	.debug_line_str,"MS",@progbits,1
.LASF0:
	.string	"kernel/arch/riscv64/asm_offsets.c"
.LASF1:
	.string	"/work/wt/forkfast"
	.ident	"GCC: (12.2.0-14+deb12u1+11+b2) 12.2.0"
