build-t/kernel/arch/riscv64/entry.S.o: kernel/arch/riscv64/entry.S \
 kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h \
 kernel/arch/riscv64/include/arch/sbi.h kernel/include/config.h
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
kernel/arch/riscv64/include/arch/sbi.h:
kernel/include/config.h:
