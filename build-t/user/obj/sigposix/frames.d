build-t/user/obj/sigposix/frames.o: user/sigposix/frames.c \
 user/sigposix/sigposix.h user/lib/ulib.h include/faultline/abi.h \
 include/faultline/errno.h include/faultline/syscall.h user/lib/testrun.h \
 user/lib/ulib.h
user/sigposix/sigposix.h:
user/lib/ulib.h:
include/faultline/abi.h:
include/faultline/errno.h:
include/faultline/syscall.h:
user/lib/testrun.h:
user/lib/ulib.h:
