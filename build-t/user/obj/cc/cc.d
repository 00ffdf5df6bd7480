build-t/user/obj/cc/cc.o: user/cc/cc.c user/cc/cc.h user/lib/ulib.h \
 include/faultline/abi.h include/faultline/errno.h \
 include/faultline/syscall.h
user/cc/cc.h:
user/lib/ulib.h:
include/faultline/abi.h:
include/faultline/errno.h:
include/faultline/syscall.h:
