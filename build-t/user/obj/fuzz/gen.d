build-t/user/obj/fuzz/gen.o: user/fuzz/gen.c user/fuzz/fuzz.h \
 user/lib/ulib.h include/faultline/abi.h include/faultline/errno.h \
 include/faultline/syscall.h user/lib/mix64.h
user/fuzz/fuzz.h:
user/lib/ulib.h:
include/faultline/abi.h:
include/faultline/errno.h:
include/faultline/syscall.h:
user/lib/mix64.h:
