build-t/kernel/dev/console.c.o: kernel/dev/console.c \
 kernel/include/console.h kernel/include/types.h kernel/include/uart.h \
 kernel/include/spinlock.h kernel/include/lockrank.h \
 kernel/include/proc.h kernel/include/config.h kernel/include/spinlock.h \
 kernel/include/arch_api.h kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/types.h \
 kernel/include/irq.h include/faultline/abi.h kernel/include/cpu.h \
 kernel/include/signal.h kernel/include/proc.h kernel/include/pgrp.h \
 kernel/include/usercopy.h kernel/include/config.h \
 kernel/include/arch_api.h include/faultline/errno.h
kernel/include/console.h:
kernel/include/types.h:
kernel/include/uart.h:
kernel/include/spinlock.h:
kernel/include/lockrank.h:
kernel/include/proc.h:
kernel/include/config.h:
kernel/include/spinlock.h:
kernel/include/arch_api.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
kernel/include/types.h:
kernel/include/irq.h:
include/faultline/abi.h:
kernel/include/cpu.h:
kernel/include/signal.h:
kernel/include/proc.h:
kernel/include/pgrp.h:
kernel/include/usercopy.h:
kernel/include/config.h:
kernel/include/arch_api.h:
include/faultline/errno.h:
