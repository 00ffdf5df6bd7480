build-t/kernel/mm/mmap.c.o: kernel/mm/mmap.c kernel/include/aspace.h \
 kernel/include/types.h kernel/include/mmu.h kernel/include/config.h \
 kernel/arch/riscv64/include/arch/pte.h kernel/include/types.h \
 kernel/include/sleeplock.h kernel/include/spinlock.h \
 kernel/include/lockrank.h kernel/include/frame.h \
 kernel/include/coremap.h kernel/arch/riscv64/include/arch/arch.h \
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
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
include/faultline/errno.h:
