build-t/user/obj/cc/c1.o: user/cc/c1.c user/cc/gen.h user/cc/cc.h \
 user/lib/ulib.h include/faultline/abi.h include/faultline/errno.h \
 include/faultline/syscall.h
user/cc/gen.h:
user/cc/cc.h:
user/lib/ulib.h:
include/faultline/abi.h:
include/faultline/errno.h:
include/faultline/syscall.h:
