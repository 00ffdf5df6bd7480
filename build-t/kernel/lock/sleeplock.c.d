build-t/kernel/lock/sleeplock.c.o: kernel/lock/sleeplock.c \
 kernel/include/sleeplock.h kernel/include/spinlock.h \
 kernel/include/types.h kernel/include/lockrank.h kernel/include/proc.h \
 kernel/include/config.h kernel/include/arch_api.h \
 kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/types.h \
 kernel/include/irq.h include/faultline/abi.h kernel/include/cpu.h \
 kernel/include/printk.h
kernel/include/sleeplock.h:
kernel/include/spinlock.h:
kernel/include/types.h:
kernel/include/lockrank.h:
kernel/include/proc.h:
kernel/include/config.h:
kernel/include/arch_api.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
kernel/include/types.h:
kernel/include/irq.h:
include/faultline/abi.h:
kernel/include/cpu.h:
kernel/include/printk.h:
