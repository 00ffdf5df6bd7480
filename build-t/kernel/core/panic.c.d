build-t/kernel/core/panic.c.o: kernel/core/panic.c \
 kernel/include/printk.h kernel/include/types.h kernel/include/console.h \
 kernel/include/cpu.h kernel/include/config.h kernel/include/arch_api.h \
 kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/types.h \
 kernel/include/irq.h kernel/include/lockrank.h kernel/include/config.h
kernel/include/printk.h:
kernel/include/types.h:
kernel/include/console.h:
kernel/include/cpu.h:
kernel/include/config.h:
kernel/include/arch_api.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
kernel/include/types.h:
kernel/include/irq.h:
kernel/include/lockrank.h:
kernel/include/config.h:
