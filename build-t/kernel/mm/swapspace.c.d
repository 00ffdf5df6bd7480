build-t/kernel/mm/swapspace.c.o: kernel/mm/swapspace.c \
 kernel/mm/swapspace.h kernel/include/types.h kernel/mm/swapmap.h \
 kernel/include/blk.h kernel/include/types.h kernel/include/config.h \
 kernel/include/mmu.h kernel/include/config.h \
 kernel/arch/riscv64/include/arch/pte.h kernel/include/spinlock.h \
 kernel/include/lockrank.h kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/printk.h \
 kernel/include/vmstat.h kernel/mm/pdmap.h kernel/mm/pc.h \
 kernel/include/aspace.h kernel/include/mmu.h kernel/include/sleeplock.h \
 kernel/include/spinlock.h kernel/include/coremap.h \
 include/faultline/errno.h
kernel/mm/swapspace.h:
kernel/include/types.h:
kernel/mm/swapmap.h:
kernel/include/blk.h:
kernel/include/types.h:
kernel/include/config.h:
kernel/include/mmu.h:
kernel/include/config.h:
kernel/arch/riscv64/include/arch/pte.h:
kernel/include/spinlock.h:
kernel/include/lockrank.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
kernel/include/printk.h:
kernel/include/vmstat.h:
kernel/mm/pdmap.h:
kernel/mm/pc.h:
kernel/include/aspace.h:
kernel/include/mmu.h:
kernel/include/sleeplock.h:
kernel/include/spinlock.h:
kernel/include/coremap.h:
include/faultline/errno.h:
