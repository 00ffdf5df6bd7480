build-t/kernel/arch/riscv64/switch.S.o: kernel/arch/riscv64/switch.S
