build-t/kernel/mm/pdmap.c.o: kernel/mm/pdmap.c kernel/mm/pdmap.h \
 kernel/include/types.h kernel/include/blk.h kernel/include/types.h \
 kernel/mm/swapspace.h kernel/mm/swapmap.h kernel/include/config.h \
 kernel/include/frame.h kernel/include/coremap.h kernel/include/param.h \
 kernel/include/spinlock.h kernel/include/lockrank.h \
 kernel/include/vmstat.h kernel/include/printk.h kernel/mm/pc.h \
 kernel/include/aspace.h kernel/include/mmu.h kernel/include/config.h \
 kernel/arch/riscv64/include/arch/pte.h kernel/include/sleeplock.h \
 kernel/include/spinlock.h kernel/include/coremap.h \
 kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h include/faultline/errno.h
kernel/mm/pdmap.h:
kernel/include/types.h:
kernel/include/blk.h:
kernel/include/types.h:
kernel/mm/swapspace.h:
kernel/mm/swapmap.h:
kernel/include/config.h:
kernel/include/frame.h:
kernel/include/coremap.h:
kernel/include/param.h:
kernel/include/spinlock.h:
kernel/include/lockrank.h:
kernel/include/vmstat.h:
kernel/include/printk.h:
kernel/mm/pc.h:
kernel/include/aspace.h:
kernel/include/mmu.h:
kernel/include/config.h:
kernel/arch/riscv64/include/arch/pte.h:
kernel/include/sleeplock.h:
kernel/include/spinlock.h:
kernel/include/coremap.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
include/faultline/errno.h:
