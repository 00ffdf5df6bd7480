build-t/user/obj/fuzz/args.o: user/fuzz/args.c user/fuzz/child.h \
 user/fuzz/fuzz.h user/lib/ulib.h include/faultline/abi.h \
 include/faultline/errno.h include/faultline/syscall.h
user/fuzz/child.h:
user/fuzz/fuzz.h:
user/lib/ulib.h:
include/faultline/abi.h:
include/faultline/errno.h:
include/faultline/syscall.h:
