build-t/kernel/dev/uart.c.o: kernel/dev/uart.c kernel/include/uart.h \
 kernel/include/types.h kernel/include/console.h kernel/include/irq.h \
 kernel/include/printk.h kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/types.h
kernel/include/uart.h:
kernel/include/types.h:
kernel/include/console.h:
kernel/include/irq.h:
kernel/include/printk.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
kernel/include/types.h:
