build-t/user/obj/lib/sigregs.o: user/lib/sigregs.S user/lib/sigregs.h
user/lib/sigregs.h:
