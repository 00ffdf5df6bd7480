build-t/kernel/proc/user_boundary.c.o: kernel/proc/user_boundary.c \
 kernel/include/proc.h kernel/include/types.h kernel/include/config.h \
 kernel/include/spinlock.h kernel/include/lockrank.h \
 kernel/include/arch_api.h kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/types.h \
 kernel/include/irq.h include/faultline/abi.h kernel/include/cpu.h \
 kernel/include/signal.h kernel/include/proc.h
kernel/include/proc.h:
kernel/include/types.h:
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
kernel/include/signal.h:
kernel/include/proc.h:
