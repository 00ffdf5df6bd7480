build-t/kernel/mm/usercopy.c.o: kernel/mm/usercopy.c \
 kernel/include/usercopy.h kernel/include/types.h \
 kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/types.h \
 include/faultline/errno.h
kernel/include/usercopy.h:
kernel/include/types.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
kernel/include/types.h:
include/faultline/errno.h:
