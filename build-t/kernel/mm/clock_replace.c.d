build-t/kernel/mm/clock_replace.c.o: kernel/mm/clock_replace.c \
 kernel/mm/clock_replace.h kernel/include/coremap.h \
 kernel/include/types.h
kernel/mm/clock_replace.h:
kernel/include/coremap.h:
kernel/include/types.h:
