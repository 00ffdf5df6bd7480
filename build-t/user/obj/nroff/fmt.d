build-t/user/obj/nroff/fmt.o: user/nroff/fmt.c user/nroff/nroff.h \
 user/lib/ulib.h include/faultline/abi.h include/faultline/errno.h \
 include/faultline/syscall.h
user/nroff/nroff.h:
user/lib/ulib.h:
include/faultline/abi.h:
include/faultline/errno.h:
include/faultline/syscall.h:
