build-t/user/obj/lib/sigtramp.o: user/lib/sigtramp.S \
 include/faultline/syscall.h
include/faultline/syscall.h:
