build-t/kernel/syscall.c.o: kernel/syscall.c kernel/include/syscall.h \
 kernel/include/arch_api.h kernel/include/types.h \
 kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/types.h \
 kernel/include/irq.h kernel/include/meter.h kernel/include/cpu.h \
 kernel/include/config.h kernel/include/lockrank.h \
 include/faultline/abi.h kernel/include/ulf.h kernel/include/aspace.h \
 kernel/include/mmu.h kernel/arch/riscv64/include/arch/pte.h \
 kernel/include/sleeplock.h kernel/include/spinlock.h \
 include/faultline/syscall.h include/faultline/errno.h \
 kernel/include/sysproc.h kernel/include/file.h kernel/include/initrd.h \
 kernel/include/exec.h kernel/include/ktime.h kernel/include/meter.h \
 kernel/include/signal.h kernel/include/proc.h kernel/include/vmstat.h \
 kernel/include/mm.h kernel/include/frame.h kernel/include/coremap.h \
 kernel/include/pgrp.h kernel/include/ulf.h
kernel/include/syscall.h:
kernel/include/arch_api.h:
kernel/include/types.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
kernel/include/types.h:
kernel/include/irq.h:
kernel/include/meter.h:
kernel/include/cpu.h:
kernel/include/config.h:
kernel/include/lockrank.h:
include/faultline/abi.h:
kernel/include/ulf.h:
kernel/include/aspace.h:
kernel/include/mmu.h:
kernel/arch/riscv64/include/arch/pte.h:
kernel/include/sleeplock.h:
kernel/include/spinlock.h:
include/faultline/syscall.h:
include/faultline/errno.h:
kernel/include/sysproc.h:
kernel/include/file.h:
kernel/include/initrd.h:
kernel/include/exec.h:
kernel/include/ktime.h:
kernel/include/meter.h:
kernel/include/signal.h:
kernel/include/proc.h:
kernel/include/vmstat.h:
kernel/include/mm.h:
kernel/include/frame.h:
kernel/include/coremap.h:
kernel/include/pgrp.h:
kernel/include/ulf.h:
