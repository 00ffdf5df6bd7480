# User programs, included by the top-level Makefile.
#
# Every user/*.c is one program, built to $(BUILD)/user/<name> (a static ELF
# with no extension: that is the name it gets in the initrd). A directory
# user/<name>/ holding a main.c is one program too, linked from every .c
# and .S file in that directory (for programs too big for one file).
# user/lib/* is the C library, archived into libulib.a. Objects live under
# $(BUILD)/user/obj/ with a plain .o suffix, so the kernel's
# $(BUILD)/%.c.o rules never match them.
#
# A program of several files lives in a directory user/DIR/ whose
# build.mk names it and its sources (paths from the top), for example
#
#   USER_MULTI += c0
#   c0_SRCS := user/cc/c0.c user/cc/lex.c user/cc/util.c
#
# One directory may hold several programs that share files. Data files
# for the initrd go under user/files/ (the top-level Makefile).
#
#   make user              all programs
#   make build/user/sh     one program

USER_AR := $(CROSS)ar

# The port's flags (ARCH_CFLAGS, its arch.mk), as for the kernel.
# -fno-tree-loop-distribute-patterns: otherwise GCC may compile the loop in
# memset()/memcpy() into a call to memset()/memcpy(), i.e. to itself.
USER_CFLAGS := $(ARCH_CFLAGS) \
    -std=c11 -Wall -Wextra -Werror $(OPTFLAGS) -g -ffreestanding -fno-builtin -nostdlib \
    -fno-stack-protector -fno-pie -fno-common -fno-omit-frame-pointer \
    -fno-tree-loop-distribute-patterns -fno-asynchronous-unwind-tables \
    -ffunction-sections -fdata-sections \
    -Iinclude -Iuser/lib -MMD -MP
USER_LDFLAGS := -nostdlib -static -no-pie -T user/user.ld \
    -Wl,-z,max-page-size=4096 -Wl,--gc-sections -Wl,--build-id=none

USER_OBJDIR := $(BUILD)/user/obj

# The objects of user sources: user/x/y.c -> $(USER_OBJDIR)/x/y.o
user_objs = $(patsubst user/%,$(USER_OBJDIR)/%,$(addsuffix .o,$(basename $(1))))

# crt0 is linked explicitly (first), not from the archive: nothing refers
# to _start by a symbol the archive search could follow.
USER_CRT0     := $(USER_OBJDIR)/lib/crt0.o
USER_LIB_SRCS := $(sort $(filter-out user/lib/crt0.S,$(wildcard user/lib/*.c user/lib/*.S)))
USER_LIB_OBJS := $(call user_objs,$(USER_LIB_SRCS))
USER_LIB      := $(USER_OBJDIR)/libulib.a

USER_FILE_PROGS := $(sort $(basename $(notdir $(wildcard user/*.c))))
USER_DIR_PROGS  := $(sort $(patsubst user/%/main.c,%,$(wildcard user/*/main.c)))
USER_PROGS := $(USER_FILE_PROGS) $(USER_DIR_PROGS)
USER_BINS  := $(addprefix $(BUILD)/user/,$(USER_PROGS))

# Programs that share sources: user/DIR/build.mk adds each to USER_MULTI
# and names its sources in <prog>_SRCS (user/cc/build.mk).
USER_MULTI :=
include $(sort $(wildcard user/*/build.mk))
USER_PROGS += $(USER_MULTI)
USER_BINS  += $(addprefix $(BUILD)/user/,$(USER_MULTI))

user: $(USER_BINS) ## build the user programs (each user/*.c, and each user/NAME/ with a main.c)

$(USER_OBJDIR)/%.o: user/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(USER_CFLAGS) -c $< -o $@

$(USER_OBJDIR)/%.o: user/%.S
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	@$(CC) $(USER_CFLAGS) -D__ASSEMBLY__ -c $< -o $@

$(USER_LIB): $(USER_LIB_OBJS)
	@mkdir -p $(dir $@)
	@echo "  AR      $@"
	@rm -f $@
	@$(USER_AR) rcs $@ $^

# Links $@ from the program's objects (the prerequisites that are not crt0,
# the library or the linker script). The archive is searched again after
# libgcc, in case a libgcc routine wants memcpy or memset.
define user_link
	@echo "  LD      $@"
	@$(CC) $(USER_CFLAGS) $(USER_LDFLAGS) $(USER_CRT0) \
	    $(filter-out $(USER_CRT0) $(USER_LIB) user/user.ld,$^) \
	    -Wl,--start-group $(USER_LIB) -lgcc -Wl,--end-group -o $@
endef

$(addprefix $(BUILD)/user/,$(USER_FILE_PROGS)): $(BUILD)/user/%: $(USER_OBJDIR)/%.o \
    $(USER_CRT0) $(USER_LIB) user/user.ld
	$(user_link)

# One rule per directory program, naming its own objects.
define user_dir_prog
$(BUILD)/user/$(1): $(call user_objs,$(wildcard user/$(1)/*.c user/$(1)/*.S)) \
    $(USER_CRT0) $(USER_LIB) user/user.ld
	$$(user_link)
endef
$(foreach p,$(USER_DIR_PROGS),$(eval $(call user_dir_prog,$(p))))

# One rule per program of a build.mk, naming its own objects.
define user_multi_prog
$(BUILD)/user/$(1): $(call user_objs,$($(1)_SRCS)) $(USER_CRT0) $(USER_LIB) user/user.ld
	$$(user_link)
endef
$(foreach p,$(USER_MULTI),$(eval $(call user_multi_prog,$(p))))
