build-t/kernel/dev/irq.c.o: kernel/dev/irq.c kernel/include/irq.h \
 kernel/include/types.h kernel/include/config.h include/faultline/errno.h
kernel/include/irq.h:
kernel/include/types.h:
kernel/include/config.h:
include/faultline/errno.h:
