build-t/user/obj/cc/type.o: user/cc/type.c user/cc/c0.h user/cc/cc.h \
 user/lib/ulib.h include/faultline/abi.h include/faultline/errno.h \
 include/faultline/syscall.h
user/cc/c0.h:
user/cc/cc.h:
user/lib/ulib.h:
include/faultline/abi.h:
include/faultline/errno.h:
include/faultline/syscall.h:
