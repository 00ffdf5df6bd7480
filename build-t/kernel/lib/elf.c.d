build-t/kernel/lib/elf.c.o: kernel/lib/elf.c kernel/include/elf.h \
 kernel/include/types.h kernel/include/config.h kernel/include/kstring.h
kernel/include/elf.h:
kernel/include/types.h:
kernel/include/config.h:
kernel/include/kstring.h:
