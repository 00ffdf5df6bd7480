build-t/kernel/arch/riscv64/plic.c.o: kernel/arch/riscv64/plic.c \
 kernel/include/irq.h kernel/include/types.h kernel/include/cpu.h \
 kernel/include/config.h kernel/include/arch_api.h \
 kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/types.h \
 kernel/include/irq.h kernel/include/lockrank.h kernel/include/board.h \
 kernel/include/fdt.h kernel/arch/riscv64/include/arch/board.h \
 kernel/include/config.h kernel/include/param.h include/faultline/errno.h
kernel/include/irq.h:
kernel/include/types.h:
kernel/include/cpu.h:
kernel/include/config.h:
kernel/include/arch_api.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
kernel/include/types.h:
kernel/include/irq.h:
kernel/include/lockrank.h:
kernel/include/board.h:
kernel/include/fdt.h:
kernel/arch/riscv64/include/arch/board.h:
kernel/include/config.h:
kernel/include/param.h:
include/faultline/errno.h:
