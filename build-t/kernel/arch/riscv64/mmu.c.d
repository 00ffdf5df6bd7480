build-t/kernel/arch/riscv64/mmu.c.o: kernel/arch/riscv64/mmu.c \
 kernel/include/mmu.h kernel/include/types.h kernel/include/config.h \
 kernel/arch/riscv64/include/arch/pte.h kernel/include/types.h \
 kernel/include/frame.h kernel/include/coremap.h kernel/include/kstring.h \
 kernel/include/printk.h kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h include/faultline/errno.h
kernel/include/mmu.h:
kernel/include/types.h:
kernel/include/config.h:
kernel/arch/riscv64/include/arch/pte.h:
kernel/include/types.h:
kernel/include/frame.h:
kernel/include/coremap.h:
kernel/include/kstring.h:
kernel/include/printk.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
include/faultline/errno.h:
