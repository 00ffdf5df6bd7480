build-t/user/obj/lib/crt0.o: user/lib/crt0.S
