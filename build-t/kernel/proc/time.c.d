build-t/kernel/proc/time.c.o: kernel/proc/time.c kernel/include/ktime.h \
 kernel/include/types.h kernel/include/cpu.h kernel/include/config.h \
 kernel/include/arch_api.h kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/types.h \
 kernel/include/irq.h kernel/include/lockrank.h kernel/include/proc.h \
 kernel/include/spinlock.h include/faultline/abi.h kernel/include/cpu.h \
 kernel/include/signal.h kernel/include/proc.h kernel/include/board.h \
 kernel/include/fdt.h kernel/arch/riscv64/include/arch/board.h \
 kernel/include/config.h kernel/include/param.h kernel/include/counters.h \
 kernel/include/printk.h include/faultline/errno.h
kernel/include/ktime.h:
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
kernel/include/proc.h:
kernel/include/spinlock.h:
include/faultline/abi.h:
kernel/include/cpu.h:
kernel/include/signal.h:
kernel/include/proc.h:
kernel/include/board.h:
kernel/include/fdt.h:
kernel/arch/riscv64/include/arch/board.h:
kernel/include/config.h:
kernel/include/param.h:
kernel/include/counters.h:
kernel/include/printk.h:
include/faultline/errno.h:
