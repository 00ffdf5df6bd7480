build-t/kernel/arch/riscv64/hart.c.o: kernel/arch/riscv64/hart.c \
 kernel/include/arch_api.h kernel/include/types.h \
 kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/types.h \
 kernel/include/irq.h kernel/include/cpu.h kernel/include/config.h \
 kernel/include/arch_api.h kernel/include/lockrank.h \
 kernel/include/board.h kernel/include/fdt.h \
 kernel/arch/riscv64/include/arch/board.h kernel/include/config.h \
 kernel/include/param.h kernel/include/kstring.h \
 kernel/arch/riscv64/include/arch/sbi.h include/faultline/errno.h
kernel/include/arch_api.h:
kernel/include/types.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
kernel/include/types.h:
kernel/include/irq.h:
kernel/include/cpu.h:
kernel/include/config.h:
kernel/include/arch_api.h:
kernel/include/lockrank.h:
kernel/include/board.h:
kernel/include/fdt.h:
kernel/arch/riscv64/include/arch/board.h:
kernel/include/config.h:
kernel/include/param.h:
kernel/include/kstring.h:
kernel/arch/riscv64/include/arch/sbi.h:
include/faultline/errno.h:
