build-t/kernel/core/meter.c.o: kernel/core/meter.c kernel/include/meter.h \
 kernel/include/types.h kernel/include/arch_api.h \
 kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/types.h \
 kernel/include/irq.h kernel/include/cpu.h kernel/include/config.h \
 kernel/include/lockrank.h include/faultline/abi.h kernel/include/proc.h \
 kernel/include/spinlock.h kernel/include/cpu.h kernel/include/config.h \
 kernel/include/usercopy.h kernel/include/kstring.h \
 include/faultline/errno.h
kernel/include/meter.h:
kernel/include/types.h:
kernel/include/arch_api.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
kernel/include/types.h:
kernel/include/irq.h:
kernel/include/cpu.h:
kernel/include/config.h:
kernel/include/lockrank.h:
include/faultline/abi.h:
kernel/include/proc.h:
kernel/include/spinlock.h:
kernel/include/cpu.h:
kernel/include/config.h:
kernel/include/usercopy.h:
kernel/include/kstring.h:
include/faultline/errno.h:
