build-t/kernel/fdt/fdt_board.c.o: kernel/fdt/fdt_board.c \
 kernel/fdt/fdt_internal.h kernel/include/fdt.h kernel/include/types.h \
 kernel/include/config.h kernel/arch/riscv64/include/arch/board.h \
 kernel/include/types.h kernel/include/config.h kernel/include/kstring.h
kernel/fdt/fdt_internal.h:
kernel/include/fdt.h:
kernel/include/types.h:
kernel/include/config.h:
kernel/arch/riscv64/include/arch/board.h:
kernel/include/types.h:
kernel/include/config.h:
kernel/include/kstring.h:
