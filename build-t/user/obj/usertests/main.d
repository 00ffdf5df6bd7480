build-t/user/obj/usertests/main.o: user/usertests/main.c \
 user/usertests/usertests.h user/lib/ulib.h include/faultline/abi.h \
 include/faultline/errno.h include/faultline/syscall.h user/lib/testrun.h \
 user/lib/ulib.h
user/usertests/usertests.h:
user/lib/ulib.h:
include/faultline/abi.h:
include/faultline/errno.h:
include/faultline/syscall.h:
user/lib/testrun.h:
user/lib/ulib.h:
