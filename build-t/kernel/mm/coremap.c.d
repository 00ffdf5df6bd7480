build-t/kernel/mm/coremap.c.o: kernel/mm/coremap.c \
 kernel/include/coremap.h kernel/include/types.h kernel/include/kstring.h
kernel/include/coremap.h:
kernel/include/types.h:
kernel/include/kstring.h:
