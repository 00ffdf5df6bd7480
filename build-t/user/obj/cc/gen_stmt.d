build-t/user/obj/cc/gen_stmt.o: user/cc/gen_stmt.c user/cc/gen.h \
 user/cc/cc.h user/lib/ulib.h include/faultline/abi.h \
 include/faultline/errno.h include/faultline/syscall.h
user/cc/gen.h:
user/cc/cc.h:
user/lib/ulib.h:
include/faultline/abi.h:
include/faultline/errno.h:
include/faultline/syscall.h:
