build-t/kernel/core/printf.c.o: kernel/core/printf.c \
 kernel/include/printk.h kernel/include/types.h kernel/include/console.h \
 kernel/include/kstring.h
kernel/include/printk.h:
kernel/include/types.h:
kernel/include/console.h:
kernel/include/kstring.h:
