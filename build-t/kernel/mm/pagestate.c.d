build-t/kernel/mm/pagestate.c.o: kernel/mm/pagestate.c \
 kernel/mm/pagestate.h kernel/include/mmu.h kernel/include/types.h \
 kernel/include/config.h kernel/arch/riscv64/include/arch/pte.h \
 kernel/include/types.h
kernel/mm/pagestate.h:
kernel/include/mmu.h:
kernel/include/types.h:
kernel/include/config.h:
kernel/arch/riscv64/include/arch/pte.h:
kernel/include/types.h:
