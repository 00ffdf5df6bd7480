build-t/kernel/lib/string.c.o: kernel/lib/string.c \
 kernel/include/kstring.h kernel/include/types.h kernel/include/config.h
kernel/include/kstring.h:
kernel/include/types.h:
kernel/include/config.h:
