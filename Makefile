# faultline top-level build.
#   make            kernel + user programs + initrd
#   make qemu       boot to the shell        (CPUS=2 MEM=128M APPEND="mm=paging" DISK_SIZE=64M)
#   make qemu-gdb   boot paused, GDB stub on a private socket; then `make gdb`
#   make test       host unit tests + QEMU integration tests (pytest)
#   make mmbench    memory managers compared under icount -> docs/results/mm.md

BUILD   ?= build
CPUS    ?= 2
MEM     ?= 128M
APPEND  ?=
ICOUNT  ?=
# Size of the virtio-blk disk that make qemu attaches: $(BUILD)/disk.img,
# created (sparse) on demand and resized to this; empty = no disk.
DISK_SIZE ?= 64M

# Probe the usual cross prefixes; override with CROSS=...
CROSS ?= $(shell for p in riscv64-unknown-elf- riscv64-linux-gnu- riscv64-elf-; do \
           if command -v $${p}gcc >/dev/null 2>&1; then echo $$p; break; fi; done)

CC      := $(CROSS)gcc
LD      := $(CROSS)ld
OBJCOPY := $(CROSS)objcopy
OBJDUMP := $(CROSS)objdump
PYTHON  ?= python3

# Kernel: integer ISA only, so the kernel never touches floating-point state.
ARCHFLAGS := -march=rv64imac_zicsr_zifencei -mabi=lp64 -mcmodel=medany
COMMON_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2 -g -ffreestanding -fno-common \
    -fno-stack-protector -fno-pie -fno-omit-frame-pointer -nostdlib $(ARCHFLAGS) -MMD -MP
KCFLAGS := $(COMMON_CFLAGS) -Ikernel/include -Iinclude -Ikernel/arch/riscv64/include
KLDFLAGS := -nostdlib -static -no-pie -T linker.ld -Wl,-z,max-page-size=4096

KERNEL_SRCS := $(sort $(shell find kernel -name '*.c' -o -name '*.S'))
KERNEL_OBJS := $(patsubst %,$(BUILD)/%.o,$(KERNEL_SRCS))
KERNEL  := $(BUILD)/kernel.elf
INITRD  := $(BUILD)/initrd.cpio

.PHONY: all kernel user initrd qemu qemu-gdb gdb test test-host clean toolchain check-toolchain bench mmbench
all: check-toolchain $(KERNEL) $(INITRD)

kernel: $(KERNEL)

check-toolchain:
	@if [ -z "$(CROSS)" ]; then \
	  echo "faultline: no RISC-V cross compiler found (tried riscv64-unknown-elf-, riscv64-linux-gnu-, riscv64-elf-)."; \
	  echo "  On Debian/Ubuntu run:  make toolchain   (sudo apt-get install gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf qemu-system-misc gdb-multiarch)"; \
	  exit 1; fi

# Installs the toolchain on Debian/Ubuntu; anywhere else it says what is needed.
toolchain:
	@$(PYTHON) tools/setup.py

$(BUILD)/%.c.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(KCFLAGS) -c $< -o $@

$(BUILD)/%.S.o: %.S
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	@$(CC) $(KCFLAGS) -D__ASSEMBLY__ -c $< -o $@

$(KERNEL): $(KERNEL_OBJS) linker.ld
	@echo "  LD      $@"
	@$(CC) $(KCFLAGS) $(KLDFLAGS) $(KERNEL_OBJS) -o $@ -lgcc
	@$(OBJDUMP) -d -S $@ > $(BUILD)/kernel.asm

# Data files for the initrd (sources, manual pages...), each stored under
# its base name: the root is flat. A user/*/build.mk may add to it.
FILES :=

include user/user.mk

$(INITRD): $(USER_BINS) $(FILES) tools/mkinitrd.py
	@echo "  INITRD  $@"
	@$(PYTHON) tools/mkinitrd.py -o $@ $(USER_BINS) $(FILES)

initrd: $(INITRD)

RUN := $(PYTHON) tools/run.py --kernel $(KERNEL) --initrd $(INITRD) --cpus $(CPUS) --mem $(MEM) \
       $(if $(APPEND),--append "$(APPEND)") $(if $(ICOUNT),--icount) \
       $(if $(DISK_SIZE),--disk-size $(DISK_SIZE))

# The toolchain check runs first and the build in a second make, so that a
# toolchain installed just now is found by the CROSS probe.
qemu:
	@$(PYTHON) tools/setup.py
	@$(MAKE) --no-print-directory all
	$(RUN) --interactive

qemu-gdb:
	@$(PYTHON) tools/setup.py
	@$(MAKE) --no-print-directory all
	$(RUN) --interactive --gdb

gdb: $(KERNEL)
	$(PYTHON) tools/run.py --attach-gdb --kernel $(KERNEL)

# Like qemu: tools (and the Python test packages) first, then the build.
test:
	@$(PYTHON) tools/setup.py --test
	@$(MAKE) --no-print-directory all
	FL_BUILD=$(BUILD) $(PYTHON) -m pytest -q -n 2 tests

# Microbenchmarks under -icount: boots with CPUS harts, runs user/lat and
# writes tables, JSON and histograms to $(BUILD)/bench (docs/measurement.md).
bench: all
	$(PYTHON) tools/report.py --kernel $(KERNEL) --initrd $(INITRD) --cpus $(CPUS) --mem $(MEM) --out-dir $(BUILD)/bench

# The memory managers compared under -icount on one 4x over-committed hog
# run (mem=8M, 64M swap disk): writes docs/results/mm.md and mm.json.
mmbench: all
	$(PYTHON) tools/mmbench.py --kernel $(KERNEL) --initrd $(INITRD) --out-dir docs/results --log-dir $(BUILD)/mmbench

test-host:
	FL_BUILD=$(BUILD) $(PYTHON) -m pytest -q -m host tests

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
