build-t/kernel/mm/transit.c.o: kernel/mm/transit.c kernel/mm/transit.h \
 kernel/include/aspace.h kernel/include/types.h kernel/include/mmu.h \
 kernel/include/config.h kernel/arch/riscv64/include/arch/pte.h \
 kernel/include/types.h kernel/include/sleeplock.h \
 kernel/include/spinlock.h kernel/include/lockrank.h \
 kernel/mm/pagestate.h kernel/include/mmu.h kernel/include/frame.h \
 kernel/include/coremap.h kernel/mm/swapspace.h kernel/mm/swapmap.h \
 kernel/include/blk.h kernel/mm/pdmap.h kernel/include/proc.h \
 kernel/include/arch_api.h kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/irq.h \
 include/faultline/abi.h kernel/include/cpu.h kernel/include/vmstat.h \
 kernel/include/meter.h kernel/include/printk.h include/faultline/errno.h
kernel/mm/transit.h:
kernel/include/aspace.h:
kernel/include/types.h:
kernel/include/mmu.h:
kernel/include/config.h:
kernel/arch/riscv64/include/arch/pte.h:
kernel/include/types.h:
kernel/include/sleeplock.h:
kernel/include/spinlock.h:
kernel/include/lockrank.h:
kernel/mm/pagestate.h:
kernel/include/mmu.h:
kernel/include/frame.h:
kernel/include/coremap.h:
kernel/mm/swapspace.h:
kernel/mm/swapmap.h:
kernel/include/blk.h:
kernel/mm/pdmap.h:
kernel/include/proc.h:
kernel/include/arch_api.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
kernel/include/irq.h:
include/faultline/abi.h:
kernel/include/cpu.h:
kernel/include/vmstat.h:
kernel/include/meter.h:
kernel/include/printk.h:
include/faultline/errno.h:
