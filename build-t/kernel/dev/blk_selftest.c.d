build-t/kernel/dev/blk_selftest.c.o: kernel/dev/blk_selftest.c \
 kernel/include/blk_selftest.h kernel/include/blk.h \
 kernel/include/types.h kernel/include/config.h kernel/include/frame.h \
 kernel/include/coremap.h kernel/include/printk.h \
 kernel/include/kstring.h kernel/include/ktime.h \
 kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/types.h \
 include/faultline/errno.h
kernel/include/blk_selftest.h:
kernel/include/blk.h:
kernel/include/types.h:
kernel/include/config.h:
kernel/include/frame.h:
kernel/include/coremap.h:
kernel/include/printk.h:
kernel/include/kstring.h:
kernel/include/ktime.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
kernel/include/types.h:
include/faultline/errno.h:
