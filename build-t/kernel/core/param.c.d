build-t/kernel/core/param.c.o: kernel/core/param.c kernel/include/param.h \
 kernel/include/types.h kernel/include/config.h kernel/include/kstring.h \
 kernel/include/ktext.h
kernel/include/param.h:
kernel/include/types.h:
kernel/include/config.h:
kernel/include/kstring.h:
kernel/include/ktext.h:
