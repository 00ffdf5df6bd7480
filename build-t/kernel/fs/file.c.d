build-t/kernel/fs/file.c.o: kernel/fs/file.c kernel/include/file.h \
 kernel/include/types.h kernel/include/initrd.h kernel/include/proc.h \
 kernel/include/config.h kernel/include/spinlock.h \
 kernel/include/lockrank.h kernel/include/arch_api.h \
 kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/types.h \
 kernel/include/irq.h include/faultline/abi.h kernel/include/cpu.h \
 kernel/include/console.h kernel/include/sleeplock.h \
 kernel/include/usercopy.h kernel/include/kstring.h \
 kernel/include/printk.h include/faultline/errno.h
kernel/include/file.h:
kernel/include/types.h:
kernel/include/initrd.h:
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
kernel/include/sleeplock.h:
kernel/include/usercopy.h:
kernel/include/kstring.h:
kernel/include/printk.h:
include/faultline/errno.h:
