build-t/kernel/proc/pgrp.c.o: kernel/proc/pgrp.c kernel/include/pgrp.h \
 kernel/include/types.h kernel/include/proc.h kernel/include/config.h \
 kernel/include/spinlock.h kernel/include/lockrank.h \
 kernel/include/arch_api.h kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/types.h \
 kernel/include/irq.h include/faultline/abi.h kernel/include/cpu.h \
 kernel/include/console.h kernel/include/file.h kernel/include/initrd.h \
 include/faultline/errno.h
kernel/include/pgrp.h:
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
kernel/include/console.h:
kernel/include/file.h:
kernel/include/initrd.h:
include/faultline/errno.h:
