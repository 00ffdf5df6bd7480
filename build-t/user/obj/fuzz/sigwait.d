build-t/user/obj/fuzz/sigwait.o: user/fuzz/sigwait.c user/fuzz/child.h \
 user/fuzz/fuzz.h user/lib/ulib.h include/faultline/abi.h \
 include/faultline/errno.h include/faultline/syscall.h
user/fuzz/child.h:
user/fuzz/fuzz.h:
user/lib/ulib.h:
include/faultline/abi.h:
include/faultline/errno.h:
include/faultline/syscall.h:
