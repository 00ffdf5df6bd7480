build-t/user/obj/fuzz/main.o: user/fuzz/main.c user/fuzz/fuzz.h \
 user/lib/ulib.h include/faultline/abi.h include/faultline/errno.h \
 include/faultline/syscall.h
user/fuzz/fuzz.h:
user/lib/ulib.h:
include/faultline/abi.h:
include/faultline/errno.h:
include/faultline/syscall.h:
