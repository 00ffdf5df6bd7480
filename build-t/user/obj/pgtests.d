build-t/user/obj/pgtests.o: user/pgtests.c user/lib/ulib.h \
 include/faultline/abi.h include/faultline/errno.h \
 include/faultline/syscall.h user/lib/testrun.h user/lib/ulib.h
user/lib/ulib.h:
include/faultline/abi.h:
include/faultline/errno.h:
include/faultline/syscall.h:
user/lib/testrun.h:
user/lib/ulib.h:
