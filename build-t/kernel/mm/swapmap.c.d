build-t/kernel/mm/swapmap.c.o: kernel/mm/swapmap.c kernel/mm/swapmap.h \
 kernel/include/types.h
kernel/mm/swapmap.h:
kernel/include/types.h:
