build-t/kernel/lock/spinlock.c.o: kernel/lock/spinlock.c \
 kernel/include/spinlock.h kernel/include/types.h \
 kernel/include/lockrank.h kernel/include/cpu.h kernel/include/config.h \
 kernel/include/arch_api.h kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/types.h \
 kernel/include/irq.h kernel/include/printk.h
kernel/include/spinlock.h:
kernel/include/types.h:
kernel/include/lockrank.h:
kernel/include/cpu.h:
kernel/include/config.h:
kernel/include/arch_api.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
kernel/include/types.h:
kernel/include/irq.h:
kernel/include/printk.h:
