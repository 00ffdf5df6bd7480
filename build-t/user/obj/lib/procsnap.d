build-t/user/obj/lib/procsnap.o: user/lib/procsnap.c user/lib/ulib.h \
 include/faultline/abi.h include/faultline/errno.h \
 include/faultline/syscall.h
user/lib/ulib.h:
include/faultline/abi.h:
include/faultline/errno.h:
include/faultline/syscall.h:
