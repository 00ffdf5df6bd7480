build-t/user/obj/lib/malloc.o: user/lib/malloc.c user/lib/ulib.h \
 include/faultline/abi.h include/faultline/errno.h \
 include/faultline/syscall.h
user/lib/ulib.h:
include/faultline/abi.h:
include/faultline/errno.h:
include/faultline/syscall.h:
