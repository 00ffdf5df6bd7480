build-t/kernel/proc/proc.c.o: kernel/proc/proc.c kernel/include/ulf.h \
 kernel/include/types.h kernel/include/aspace.h kernel/include/mmu.h \
 kernel/include/config.h kernel/arch/riscv64/include/arch/pte.h \
 kernel/include/types.h kernel/include/sleeplock.h \
 kernel/include/spinlock.h kernel/include/lockrank.h \
 kernel/include/proc.h kernel/include/arch_api.h \
 kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/irq.h \
 include/faultline/abi.h kernel/include/cpu.h kernel/include/aspace.h \
 kernel/include/file.h kernel/include/initrd.h kernel/include/exec.h \
 kernel/include/mmu.h kernel/include/mm.h kernel/include/frame.h \
 kernel/include/coremap.h kernel/include/printk.h \
 kernel/include/kstring.h kernel/include/usercopy.h \
 kernel/include/signal.h kernel/include/proc.h kernel/include/pgrp.h \
 include/faultline/errno.h
kernel/include/ulf.h:
kernel/include/types.h:
kernel/include/aspace.h:
kernel/include/mmu.h:
kernel/include/config.h:
kernel/arch/riscv64/include/arch/pte.h:
kernel/include/types.h:
kernel/include/sleeplock.h:
kernel/include/spinlock.h:
kernel/include/lockrank.h:
kernel/include/proc.h:
kernel/include/arch_api.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
kernel/include/irq.h:
include/faultline/abi.h:
kernel/include/cpu.h:
kernel/include/aspace.h:
kernel/include/file.h:
kernel/include/initrd.h:
kernel/include/exec.h:
kernel/include/mmu.h:
kernel/include/mm.h:
kernel/include/frame.h:
kernel/include/coremap.h:
kernel/include/printk.h:
kernel/include/kstring.h:
kernel/include/usercopy.h:
kernel/include/signal.h:
kernel/include/proc.h:
kernel/include/pgrp.h:
include/faultline/errno.h:
