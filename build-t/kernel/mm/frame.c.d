build-t/kernel/mm/frame.c.o: kernel/mm/frame.c kernel/include/frame.h \
 kernel/include/types.h kernel/include/coremap.h kernel/include/fdt.h \
 kernel/include/config.h kernel/arch/riscv64/include/arch/board.h \
 kernel/include/types.h kernel/include/config.h kernel/include/spinlock.h \
 kernel/include/lockrank.h kernel/include/printk.h \
 kernel/include/kstring.h kernel/mm/clock_replace.h \
 kernel/include/coremap.h kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h
kernel/include/frame.h:
kernel/include/types.h:
kernel/include/coremap.h:
kernel/include/fdt.h:
kernel/include/config.h:
kernel/arch/riscv64/include/arch/board.h:
kernel/include/types.h:
kernel/include/config.h:
kernel/include/spinlock.h:
kernel/include/lockrank.h:
kernel/include/printk.h:
kernel/include/kstring.h:
kernel/mm/clock_replace.h:
kernel/include/coremap.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
