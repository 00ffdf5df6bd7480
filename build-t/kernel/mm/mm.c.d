build-t/kernel/mm/mm.c.o: kernel/mm/mm.c kernel/include/mm.h \
 kernel/include/types.h kernel/include/aspace.h kernel/include/mmu.h \
 kernel/include/config.h kernel/arch/riscv64/include/arch/pte.h \
 kernel/include/types.h kernel/include/sleeplock.h \
 kernel/include/spinlock.h kernel/include/lockrank.h \
 kernel/include/frame.h kernel/include/coremap.h kernel/include/frame.h \
 kernel/mm/swapspace.h kernel/mm/swapmap.h kernel/include/blk.h \
 kernel/mm/pdmap.h kernel/mm/transit.h kernel/include/aspace.h \
 kernel/mm/pc.h kernel/include/coremap.h kernel/include/param.h \
 kernel/include/vmstat.h kernel/include/meter.h kernel/include/arch_api.h \
 kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/irq.h \
 kernel/include/cpu.h include/faultline/abi.h kernel/include/pcmeter.h \
 include/faultline/errno.h
kernel/include/mm.h:
kernel/include/types.h:
kernel/include/aspace.h:
kernel/include/mmu.h:
kernel/include/config.h:
kernel/arch/riscv64/include/arch/pte.h:
kernel/include/types.h:
kernel/include/sleeplock.h:
kernel/include/spinlock.h:
kernel/include/lockrank.h:
kernel/include/frame.h:
kernel/include/coremap.h:
kernel/include/frame.h:
kernel/mm/swapspace.h:
kernel/mm/swapmap.h:
kernel/include/blk.h:
kernel/mm/pdmap.h:
kernel/mm/transit.h:
kernel/include/aspace.h:
kernel/mm/pc.h:
kernel/include/coremap.h:
kernel/include/param.h:
kernel/include/vmstat.h:
kernel/include/meter.h:
kernel/include/arch_api.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
kernel/include/irq.h:
kernel/include/cpu.h:
include/faultline/abi.h:
kernel/include/pcmeter.h:
include/faultline/errno.h:
