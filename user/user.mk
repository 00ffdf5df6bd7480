# User programs, included by the top-level Makefile.
#
# Every user/*.c is one program, built to $(BUILD)/user/<name> (a static ELF
# with no extension: that is the name it gets in the initrd). user/lib/* is
# the C library, archived into libulib.a. Objects live under
# $(BUILD)/user/obj/ with a plain .o suffix, so the kernel's
# $(BUILD)/%.c.o rules never match them.
#
# A program of several files lives in a directory user/DIR/ whose
# build.mk names it and its sources (paths from the top), for example
#
#   USER_MULTI += c0
#   c0_SRCS := user/cc/c0.c user/cc/lex.c user/cc/util.c
#
# One directory may hold several programs that share files. A build.mk
# may also add data files to the initrd: FILES += user/DIR/some-file.
#
#   make user              all programs
#   make build/user/sh     one program

USER_AR := $(CROSS)ar

# Integer-only ISA, as for the kernel: user programs save no FP state either.
# -fno-tree-loop-distribute-patterns: otherwise GCC may compile the loop in
# memset()/memcpy() into a call to memset()/memcpy(), i.e. to itself.
USER_CFLAGS := -march=rv64imac_zicsr_zifencei -mabi=lp64 -mcmodel=medany \
    -std=c11 -Wall -Wextra -Werror -O2 -g -ffreestanding -fno-builtin -nostdlib \
    -fno-stack-protector -fno-pie -fno-common -fno-omit-frame-pointer \
    -fno-tree-loop-distribute-patterns -fno-asynchronous-unwind-tables \
    -ffunction-sections -fdata-sections \
    -Iinclude -Iuser/lib -MMD -MP
USER_LDFLAGS := -nostdlib -static -no-pie -T user/user.ld \
    -Wl,-z,max-page-size=4096 -Wl,--gc-sections -Wl,--build-id=none

USER_OBJDIR := $(BUILD)/user/obj

# crt0 is linked explicitly (first), not from the archive: nothing refers
# to _start by a symbol the archive search could follow.
USER_CRT0     := $(USER_OBJDIR)/lib/crt0.o
USER_LIB_SRCS := $(sort $(filter-out user/lib/crt0.S,$(wildcard user/lib/*.c user/lib/*.S)))
USER_LIB_OBJS := $(patsubst user/%,$(USER_OBJDIR)/%,$(addsuffix .o,$(basename $(USER_LIB_SRCS))))
USER_LIB      := $(USER_OBJDIR)/libulib.a

USER_PROGS := $(sort $(basename $(notdir $(wildcard user/*.c))))
USER_SINGLE_BINS := $(addprefix $(BUILD)/user/,$(USER_PROGS))

USER_MULTI :=
include $(sort $(wildcard user/*/build.mk))
USER_MULTI_BINS := $(addprefix $(BUILD)/user/,$(USER_MULTI))

USER_BINS  := $(USER_SINGLE_BINS) $(USER_MULTI_BINS)

user: $(USER_BINS)

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

# The archive is searched again after libgcc, in case a libgcc routine
# wants memcpy or memset.
$(USER_SINGLE_BINS): $(BUILD)/user/%: $(USER_OBJDIR)/%.o $(USER_CRT0) $(USER_LIB) user/user.ld
	@echo "  LD      $@"
	@$(CC) $(USER_CFLAGS) $(USER_LDFLAGS) $(USER_CRT0) $< \
	    -Wl,--start-group $(USER_LIB) -lgcc -Wl,--end-group -o $@

# A multi-file program: its objects, linked the same way.
user_objs = $(patsubst user/%.c,$(USER_OBJDIR)/%.o,$($(1)_SRCS))
define USER_MULTI_RULE
$(BUILD)/user/$(1): $(call user_objs,$(1)) $(USER_CRT0) $(USER_LIB) user/user.ld
	@echo "  LD      $$@"
	@$(CC) $(USER_CFLAGS) $(USER_LDFLAGS) $(USER_CRT0) $(call user_objs,$(1)) \
	    -Wl,--start-group $(USER_LIB) -lgcc -Wl,--end-group -o $$@
endef
$(foreach p,$(USER_MULTI),$(eval $(call USER_MULTI_RULE,$(p))))
