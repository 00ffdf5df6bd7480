build-t/kernel/lock/lockrank.c.o: kernel/lock/lockrank.c \
 kernel/include/lockrank.h
kernel/include/lockrank.h:
