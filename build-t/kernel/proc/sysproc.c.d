build-t/kernel/proc/sysproc.c.o: kernel/proc/sysproc.c \
 kernel/include/sysproc.h kernel/include/types.h kernel/include/proc.h \
 kernel/include/config.h kernel/include/spinlock.h \
 kernel/include/lockrank.h kernel/include/arch_api.h \
 kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/types.h \
 kernel/include/irq.h include/faultline/abi.h kernel/include/cpu.h \
 kernel/include/aspace.h kernel/include/mmu.h \
 kernel/arch/riscv64/include/arch/pte.h kernel/include/sleeplock.h \
 kernel/include/frame.h kernel/include/coremap.h kernel/include/ktime.h \
 kernel/include/counters.h kernel/include/usercopy.h \
 kernel/include/kstring.h kernel/include/printk.h kernel/include/board.h \
 kernel/include/fdt.h kernel/arch/riscv64/include/arch/board.h \
 kernel/include/config.h kernel/include/param.h include/faultline/errno.h
kernel/include/sysproc.h:
kernel/include/types.h:
kernel/include/proc.h:
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
kernel/include/aspace.h:
kernel/include/mmu.h:
kernel/arch/riscv64/include/arch/pte.h:
kernel/include/sleeplock.h:
kernel/include/frame.h:
kernel/include/coremap.h:
kernel/include/ktime.h:
kernel/include/counters.h:
kernel/include/usercopy.h:
kernel/include/kstring.h:
kernel/include/printk.h:
kernel/include/board.h:
kernel/include/fdt.h:
kernel/arch/riscv64/include/arch/board.h:
kernel/include/config.h:
kernel/include/param.h:
include/faultline/errno.h:
