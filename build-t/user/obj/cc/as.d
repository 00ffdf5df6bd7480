build-t/user/obj/cc/as.o: user/cc/as.c user/cc/asm.h user/cc/cc.h \
 user/lib/ulib.h include/faultline/abi.h include/faultline/errno.h \
 include/faultline/syscall.h
user/cc/asm.h:
user/cc/cc.h:
user/lib/ulib.h:
include/faultline/abi.h:
include/faultline/errno.h:
include/faultline/syscall.h:
