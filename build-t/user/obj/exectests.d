build-t/user/obj/exectests.o: user/exectests.c user/lib/ulib.h \
 include/faultline/abi.h include/faultline/errno.h \
 include/faultline/syscall.h user/lib/testrun.h user/lib/ulib.h
user/lib/ulib.h:
include/faultline/abi.h:
include/faultline/errno.h:
include/faultline/syscall.h:
user/lib/testrun.h:
user/lib/ulib.h:
