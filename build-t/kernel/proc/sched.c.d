build-t/kernel/proc/sched.c.o: kernel/proc/sched.c kernel/include/proc.h \
 kernel/include/types.h kernel/include/config.h kernel/include/spinlock.h \
 kernel/include/lockrank.h kernel/include/arch_api.h \
 kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/types.h \
 kernel/include/irq.h include/faultline/abi.h kernel/include/cpu.h \
 kernel/include/blk.h kernel/include/printk.h kernel/include/mmu.h \
 kernel/arch/riscv64/include/arch/pte.h kernel/include/aspace.h \
 kernel/include/mmu.h kernel/include/sleeplock.h kernel/include/meter.h \
 kernel/include/signal.h kernel/include/proc.h \
 kernel/include/pcmeter_switch.h kernel/include/pcmeter.h \
 kernel/include/meter.h
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
kernel/include/blk.h:
kernel/include/printk.h:
kernel/include/mmu.h:
kernel/arch/riscv64/include/arch/pte.h:
kernel/include/aspace.h:
kernel/include/mmu.h:
kernel/include/sleeplock.h:
kernel/include/meter.h:
kernel/include/signal.h:
kernel/include/proc.h:
kernel/include/pcmeter_switch.h:
kernel/include/pcmeter.h:
kernel/include/meter.h:
