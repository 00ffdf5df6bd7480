build-t/user/obj/lib/syscall.o: user/lib/syscall.S \
 include/faultline/syscall.h
include/faultline/syscall.h:
