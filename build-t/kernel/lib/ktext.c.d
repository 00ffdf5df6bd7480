build-t/kernel/lib/ktext.c.o: kernel/lib/ktext.c kernel/include/ktext.h \
 kernel/include/types.h kernel/include/kstring.h
kernel/include/ktext.h:
kernel/include/types.h:
kernel/include/kstring.h:
