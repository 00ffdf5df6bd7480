build-t/kernel/lib/kstrlcpy.c.o: kernel/lib/kstrlcpy.c \
 kernel/include/kstring.h kernel/include/types.h
kernel/include/kstring.h:
kernel/include/types.h:
