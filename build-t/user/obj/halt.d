build-t/user/obj/halt.o: user/halt.c user/lib/ulib.h \
 include/faultline/abi.h include/faultline/errno.h \
 include/faultline/syscall.h
user/lib/ulib.h:
include/faultline/abi.h:
include/faultline/errno.h:
include/faultline/syscall.h:
