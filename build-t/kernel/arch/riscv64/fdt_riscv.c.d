build-t/kernel/arch/riscv64/fdt_riscv.c.o: \
 kernel/arch/riscv64/fdt_riscv.c \
 kernel/arch/riscv64/../../fdt/fdt_internal.h kernel/include/fdt.h \
 kernel/include/types.h kernel/include/config.h \
 kernel/arch/riscv64/include/arch/board.h kernel/include/types.h \
 kernel/include/config.h kernel/include/kstring.h
kernel/arch/riscv64/../../fdt/fdt_internal.h:
kernel/include/fdt.h:
kernel/include/types.h:
kernel/include/config.h:
kernel/arch/riscv64/include/arch/board.h:
kernel/include/types.h:
kernel/include/config.h:
kernel/include/kstring.h:
