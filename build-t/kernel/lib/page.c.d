build-t/kernel/lib/page.c.o: kernel/lib/page.c kernel/include/kstring.h \
 kernel/include/types.h kernel/include/config.h
kernel/include/kstring.h:
kernel/include/types.h:
kernel/include/config.h:
