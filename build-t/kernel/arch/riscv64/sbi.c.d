build-t/kernel/arch/riscv64/sbi.c.o: kernel/arch/riscv64/sbi.c \
 kernel/include/arch_api.h kernel/include/types.h \
 kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/types.h \
 kernel/include/irq.h kernel/arch/riscv64/include/arch/sbi.h
kernel/include/arch_api.h:
kernel/include/types.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
kernel/include/types.h:
kernel/include/irq.h:
kernel/arch/riscv64/include/arch/sbi.h:
