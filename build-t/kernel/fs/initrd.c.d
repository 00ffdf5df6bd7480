build-t/kernel/fs/initrd.c.o: kernel/fs/initrd.c kernel/include/initrd.h \
 kernel/include/types.h kernel/include/kstring.h
kernel/include/initrd.h:
kernel/include/types.h:
kernel/include/kstring.h:
