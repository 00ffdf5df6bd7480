build-t/kernel/proc/signal.c.o: kernel/proc/signal.c \
 kernel/include/signal.h kernel/include/proc.h kernel/include/types.h \
 kernel/include/config.h kernel/include/spinlock.h \
 kernel/include/lockrank.h kernel/include/arch_api.h \
 kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/types.h \
 kernel/include/irq.h include/faultline/abi.h kernel/include/cpu.h \
 kernel/include/meter.h kernel/include/usercopy.h \
 kernel/include/kstring.h kernel/include/printk.h \
 kernel/include/arch_api.h kernel/include/aspace.h kernel/include/mmu.h \
 kernel/arch/riscv64/include/arch/pte.h kernel/include/sleeplock.h \
 kernel/include/trap.h kernel/include/aspace.h include/faultline/errno.h
kernel/include/signal.h:
kernel/include/proc.h:
kernel/include/types.h:
kernel/include/config.h:
kernel/include/spinlock.h:
kernel/include/lockrank.h:
kernel/include/arch_api.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
kernel/include/types.h:
kernel/include/irq.h:
include/faultline/abi.h:
kernel/include/cpu.h:
kernel/include/meter.h:
kernel/include/usercopy.h:
kernel/include/kstring.h:
kernel/include/printk.h:
kernel/include/arch_api.h:
kernel/include/aspace.h:
kernel/include/mmu.h:
kernel/arch/riscv64/include/arch/pte.h:
kernel/include/sleeplock.h:
kernel/include/trap.h:
kernel/include/aspace.h:
include/faultline/errno.h:
