build-t/kernel/arch/riscv64/trap.S.o: kernel/arch/riscv64/trap.S \
 kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h build-t/gen/asm_offsets.h \
 include/faultline/syscall.h
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
build-t/gen/asm_offsets.h:
include/faultline/syscall.h:
