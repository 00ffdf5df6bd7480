build-t/kernel/mm/clone.c.o: kernel/mm/clone.c kernel/include/aspace.h \
 kernel/include/types.h kernel/include/mmu.h kernel/include/config.h \
 kernel/arch/riscv64/include/arch/pte.h kernel/include/types.h \
 kernel/include/sleeplock.h kernel/include/spinlock.h \
 kernel/include/lockrank.h kernel/include/frame.h \
 kernel/include/coremap.h kernel/include/mm.h kernel/include/aspace.h \
 kernel/include/frame.h kernel/mm/swapspace.h kernel/mm/swapmap.h \
 kernel/include/blk.h kernel/mm/transit.h kernel/mm/pagestate.h \
 kernel/include/mmu.h kernel/include/kstring.h \
 kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h include/faultline/errno.h
kernel/include/aspace.h:
kernel/include/types.h:
kernel/include/mmu.h:
kernel/include/config.h:
kernel/arch/riscv64/include/arch/pte.h:
kernel/include/types.h:
kernel/include/sleeplock.h:
kernel/include/spinlock.h:
kernel/include/lockrank.h:
kernel/include/frame.h:
kernel/include/coremap.h:
kernel/include/mm.h:
kernel/include/aspace.h:
kernel/include/frame.h:
kernel/mm/swapspace.h:
kernel/mm/swapmap.h:
kernel/include/blk.h:
kernel/mm/transit.h:
kernel/mm/pagestate.h:
kernel/include/mmu.h:
kernel/include/kstring.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
include/faultline/errno.h:
