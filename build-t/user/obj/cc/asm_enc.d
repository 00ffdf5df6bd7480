build-t/user/obj/cc/asm_enc.o: user/cc/asm_enc.c user/cc/asm.h \
 user/cc/cc.h user/lib/ulib.h include/faultline/abi.h \
 include/faultline/errno.h include/faultline/syscall.h
user/cc/asm.h:
user/cc/cc.h:
user/lib/ulib.h:
include/faultline/abi.h:
include/faultline/errno.h:
include/faultline/syscall.h:
