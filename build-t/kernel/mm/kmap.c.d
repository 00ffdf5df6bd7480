build-t/kernel/mm/kmap.c.o: kernel/mm/kmap.c kernel/include/mmu.h \
 kernel/include/types.h kernel/include/config.h \
 kernel/arch/riscv64/include/arch/pte.h kernel/include/types.h \
 kernel/include/kmap.h kernel/include/frame.h kernel/include/coremap.h \
 kernel/include/printk.h kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h
kernel/include/mmu.h:
kernel/include/types.h:
kernel/include/config.h:
kernel/arch/riscv64/include/arch/pte.h:
kernel/include/types.h:
kernel/include/kmap.h:
kernel/include/frame.h:
kernel/include/coremap.h:
kernel/include/printk.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
