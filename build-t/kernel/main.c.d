build-t/kernel/main.c.o: kernel/main.c kernel/include/board.h \
 kernel/include/fdt.h kernel/include/types.h kernel/include/config.h \
 kernel/arch/riscv64/include/arch/board.h kernel/include/types.h \
 kernel/include/config.h kernel/include/param.h kernel/include/cpu.h \
 kernel/include/arch_api.h kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/irq.h \
 kernel/include/lockrank.h kernel/include/proc.h \
 kernel/include/spinlock.h include/faultline/abi.h kernel/include/cpu.h \
 kernel/include/frame.h kernel/include/coremap.h kernel/include/kmap.h \
 kernel/include/frame.h kernel/include/mmu.h \
 kernel/arch/riscv64/include/arch/pte.h kernel/include/file.h \
 kernel/include/initrd.h kernel/include/ktime.h kernel/include/counters.h \
 kernel/include/meter.h kernel/include/mm.h kernel/include/aspace.h \
 kernel/include/mmu.h kernel/include/sleeplock.h kernel/include/uart.h \
 kernel/include/irq.h kernel/include/blk.h kernel/include/blk_selftest.h \
 kernel/include/printk.h kernel/include/kstring.h kernel/include/elf.h \
 kernel/include/aspace.h include/faultline/errno.h
kernel/include/board.h:
kernel/include/fdt.h:
kernel/include/types.h:
kernel/include/config.h:
kernel/arch/riscv64/include/arch/board.h:
kernel/include/types.h:
kernel/include/config.h:
kernel/include/param.h:
kernel/include/cpu.h:
kernel/include/arch_api.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
kernel/include/irq.h:
kernel/include/lockrank.h:
kernel/include/proc.h:
kernel/include/spinlock.h:
include/faultline/abi.h:
kernel/include/cpu.h:
kernel/include/frame.h:
kernel/include/coremap.h:
kernel/include/kmap.h:
kernel/include/frame.h:
kernel/include/mmu.h:
kernel/arch/riscv64/include/arch/pte.h:
kernel/include/file.h:
kernel/include/initrd.h:
kernel/include/ktime.h:
kernel/include/counters.h:
kernel/include/meter.h:
kernel/include/mm.h:
kernel/include/aspace.h:
kernel/include/mmu.h:
kernel/include/sleeplock.h:
kernel/include/uart.h:
kernel/include/irq.h:
kernel/include/blk.h:
kernel/include/blk_selftest.h:
kernel/include/printk.h:
kernel/include/kstring.h:
kernel/include/elf.h:
kernel/include/aspace.h:
include/faultline/errno.h:
