# The riscv64 port as the top-level Makefile sees it (ARCH=riscv64).
# A port's arch.mk sets each of these; kernel/arch/<arch>/ holds its
# sources, its include/ directory (<arch/...> headers) and this file.

# Cross-compiler prefixes to probe, in order (CROSS= overrides).
ARCH_CROSS_PREFIXES := riscv64-unknown-elf- riscv64-linux-gnu- riscv64-elf-
# What `make toolchain` would install, for the message when none is found.
ARCH_TOOLCHAIN_HINT := sudo apt-get install gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf qemu-system-misc gdb-multiarch

# Integer ISA only, for kernel and user programs alike: neither saves
# floating-point state.
ARCH_CFLAGS := -march=rv64imac_zicsr_zifencei -mabi=lp64 -mcmodel=medany

# The kernel's linker script (load address, sections, symbols the
# kernel uses).
ARCH_LDSCRIPT := kernel/arch/riscv64/kernel.ld

# The C file compiled to assembly for the offsets the port's .S files
# read from portable structures (asm_offsets.h in the build directory).
ARCH_ASM_OFFSETS := kernel/arch/riscv64/asm_offsets.c

# The machine tools/run.py and the tests start: their --arch name
# (tools/faultline/qemu.py holds its QEMU binary, machine and firmware).
ARCH_QEMU := riscv64
