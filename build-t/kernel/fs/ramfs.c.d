build-t/kernel/fs/ramfs.c.o: kernel/fs/ramfs.c kernel/include/file.h \
 kernel/include/types.h kernel/include/initrd.h kernel/include/frame.h \
 kernel/include/coremap.h kernel/include/kstring.h \
 kernel/include/usercopy.h kernel/include/config.h \
 kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/types.h \
 include/faultline/abi.h include/faultline/errno.h
kernel/include/file.h:
kernel/include/types.h:
kernel/include/initrd.h:
kernel/include/frame.h:
kernel/include/coremap.h:
kernel/include/kstring.h:
kernel/include/usercopy.h:
kernel/include/config.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
kernel/include/types.h:
include/faultline/abi.h:
include/faultline/errno.h:
