build-t/user/obj/sh/builtin.o: user/sh/builtin.c user/sh/sh.h \
 user/lib/ulib.h include/faultline/abi.h include/faultline/errno.h \
 include/faultline/syscall.h
user/sh/sh.h:
user/lib/ulib.h:
include/faultline/abi.h:
include/faultline/errno.h:
include/faultline/syscall.h:
