build-t/user/obj/cc/check.o: user/cc/check.c user/cc/c0.h user/cc/cc.h \
 user/lib/ulib.h include/faultline/abi.h include/faultline/errno.h \
 include/faultline/syscall.h
user/cc/c0.h:
user/cc/cc.h:
user/lib/ulib.h:
include/faultline/abi.h:
include/faultline/errno.h:
include/faultline/syscall.h:
