build-t/kernel/dev/blk_latency.c.o: kernel/dev/blk_latency.c \
 kernel/include/blk_latency.h kernel/include/types.h
kernel/include/blk_latency.h:
kernel/include/types.h:
