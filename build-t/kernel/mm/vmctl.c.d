build-t/kernel/mm/vmctl.c.o: kernel/mm/vmctl.c kernel/include/mm.h \
 kernel/include/types.h kernel/include/aspace.h kernel/include/mmu.h \
 kernel/include/config.h kernel/arch/riscv64/include/arch/pte.h \
 kernel/include/types.h kernel/include/sleeplock.h \
 kernel/include/spinlock.h kernel/include/lockrank.h \
 kernel/include/frame.h kernel/include/coremap.h kernel/include/proc.h \
 kernel/include/arch_api.h kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/irq.h \
 include/faultline/abi.h kernel/include/cpu.h kernel/include/vmstat.h \
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
kernel/include/proc.h:
kernel/include/arch_api.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
kernel/include/irq.h:
include/faultline/abi.h:
kernel/include/cpu.h:
kernel/include/vmstat.h:
include/faultline/errno.h:
