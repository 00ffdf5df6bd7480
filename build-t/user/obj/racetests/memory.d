build-t/user/obj/racetests/memory.o: user/racetests/memory.c \
 user/racetests/racetests.h user/lib/ulib.h include/faultline/abi.h \
 include/faultline/errno.h include/faultline/syscall.h user/lib/testrun.h \
 user/lib/ulib.h
user/racetests/racetests.h:
user/lib/ulib.h:
include/faultline/abi.h:
include/faultline/errno.h:
include/faultline/syscall.h:
user/lib/testrun.h:
user/lib/ulib.h:
