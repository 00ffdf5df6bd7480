# faultline top-level build.
#   make            kernel + user programs + initrd
#   make qemu       boot to the shell        (CPUS=2 MEM=128M APPEND="mm=paging" DISK_SIZE=64M)
#   make qemu-gdb   boot paused, GDB stub on a private socket; then `make gdb`
#   make test       host unit tests + QEMU integration tests (pytest)
#   make bench      microbenchmarks, one boot per configuration they need -> build/bench
#   make mmbench    memory managers compared under icount -> build/mmbench (DOCS=1: docs/results)
#   make docs-results  both, into docs/results, and the figures quoted in docs/

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

.PHONY: all kernel user initrd qemu qemu-gdb gdb test test-host clean toolchain check-toolchain bench mmbench docs-results
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

include user/user.mk

# Files installed in the initrd besides the programs: every file under
# user/files/ is stored at its path below that directory, so
# user/files/man/man1/ls.1 is /man/man1/ls.1 at run time (user/README.md).
# Its directories are prerequisites too, so adding or removing a file
# rebuilds the initrd.
INITRD_TREE  := user/files
INITRD_FILES := $(shell find $(INITRD_TREE) -name '.*' -prune -o -print 2>/dev/null)

$(INITRD): $(USER_BINS) $(INITRD_FILES) tools/mkinitrd.py
	@echo "  INITRD  $@"
	@$(PYTHON) tools/mkinitrd.py -o $@ $(if $(wildcard $(INITRD_TREE)),--tree $(INITRD_TREE)) $(USER_BINS)

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

# Microbenchmarks under -icount: one boot per configuration they need
# (default mm with a disk and CPUS harts; mm=swap for swapin; meters=off),
# tables, JSON and plots into $(BUILD)/bench (docs/measurement.md). Fails,
# naming them, if any benchmark is missing or could not run.
# DOCS=1: into docs/results, and rewrite the figures docs/measurement.md quotes.
BENCH_OUT   = $(if $(DOCS),docs/results,$(BUILD)/bench)
MMBENCH_OUT = $(if $(DOCS),docs/results,$(BUILD)/mmbench)
bench: all
	$(PYTHON) tools/report.py --kernel $(KERNEL) --initrd $(INITRD) --cpus $(CPUS) --mem $(MEM) \
	  --out-dir $(BENCH_OUT) $(if $(DOCS),--docs-md docs/measurement.md)

# The memory managers compared under -icount on one 4x over-committed hog
# run (mem=8M, 64M swap disk), MMBENCH_RUNS times each (counts that depend
# on when the disk answers move between runs): mm.md, mm.json, mm.png into
# $(BUILD)/mmbench; DOCS=1 into docs/results, with the figures in docs/.
MMBENCH_RUNS ?= 3
mmbench: all
	$(PYTHON) tools/mmbench.py --kernel $(KERNEL) --initrd $(INITRD) --repeat $(MMBENCH_RUNS) \
	  --out-dir $(MMBENCH_OUT) --log-dir $(BUILD)/mmbench $(if $(DOCS),--docs-md docs/measurement.md)

# Every result kept in docs/ regenerated from one build: docs/results/* and
# the generated blocks of docs/measurement.md (tests/test_docs.py checks
# that they are in the tools' format). Both runs first, then the status.
docs-results: all
	@rc=0; $(MAKE) --no-print-directory bench DOCS=1 || rc=1; \
	  $(MAKE) --no-print-directory mmbench DOCS=1 || rc=1; exit $$rc

test-host:
	FL_BUILD=$(BUILD) $(PYTHON) -m pytest -q -m host tests

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
