build-t/user/obj/lib/thread_entry.o: user/lib/thread_entry.S
