build-t/kernel/arch/riscv64/trap.c.o: kernel/arch/riscv64/trap.c \
 kernel/include/trap.h kernel/include/types.h kernel/include/aspace.h \
 kernel/include/mmu.h kernel/include/config.h \
 kernel/arch/riscv64/include/arch/pte.h kernel/include/types.h \
 kernel/include/sleeplock.h kernel/include/spinlock.h \
 kernel/include/lockrank.h kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/proc.h \
 kernel/include/arch_api.h kernel/include/irq.h include/faultline/abi.h \
 kernel/include/cpu.h kernel/include/signal.h kernel/include/proc.h \
 kernel/include/syscall.h kernel/include/meter.h kernel/include/ulf.h \
 include/faultline/syscall.h include/faultline/errno.h \
 kernel/include/usercopy.h kernel/include/printk.h kernel/include/meter.h
kernel/include/trap.h:
kernel/include/types.h:
kernel/include/aspace.h:
kernel/include/mmu.h:
kernel/include/config.h:
kernel/arch/riscv64/include/arch/pte.h:
kernel/include/types.h:
kernel/include/sleeplock.h:
kernel/include/spinlock.h:
kernel/include/lockrank.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
kernel/include/proc.h:
kernel/include/arch_api.h:
kernel/include/irq.h:
include/faultline/abi.h:
kernel/include/cpu.h:
kernel/include/signal.h:
kernel/include/proc.h:
kernel/include/syscall.h:
kernel/include/meter.h:
kernel/include/ulf.h:
include/faultline/syscall.h:
include/faultline/errno.h:
kernel/include/usercopy.h:
kernel/include/printk.h:
kernel/include/meter.h:
