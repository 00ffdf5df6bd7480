# faultline top-level build. `make help` lists every target and knob.
#
# Help text comes from the Makefiles themselves: a target whose rule line
# ends in `## text`, and a knob with a `## NAME: text` line above it, are
# listed by `make help`, so a new target documents itself where it is
# defined (tests/test_make.py checks that every .PHONY target does).

# ----- knobs ------------------------------------------------------------------
# A knob documents itself with a `## NAME: text` line just above it.

## ARCH: the port to build, a directory under kernel/arch/ (riscv64, the only one so far)
ARCH    ?= riscv64
# Everything the port decides (cross compiler, -march flags, linker script,
# QEMU machine) comes from its arch.mk; an unknown ARCH stops here, before
# anything is built, naming the ports there are.
ARCH_PORTS := $(sort $(notdir $(wildcard kernel/arch/*)))
ifneq ($(words $(ARCH)),1)
$(error ARCH='$(ARCH)': name one port: $(ARCH_PORTS))
else ifeq ($(filter $(ARCH),$(ARCH_PORTS)),)
$(error ARCH=$(ARCH): no such port (kernel/arch/$(ARCH)/ does not exist); the ports are: $(ARCH_PORTS))
endif
ARCH_DIR := kernel/arch/$(ARCH)
include $(ARCH_DIR)/arch.mk

## DEBUG: 1 = -Og -g -DFL_DEBUG build of kernel and user programs, in build-debug/
DEBUG   ?=
# The debug build has its own directory, so debug and optimised objects never
# mix and switching between them rebuilds nothing.
DEBUG_BUILD := build-debug
ifeq ($(strip $(DEBUG)),1)
BUILD   ?= $(DEBUG_BUILD)
OPTFLAGS := -Og -DFL_DEBUG
else ifneq ($(filter-out 0,$(strip $(DEBUG))),)
$(error DEBUG=$(DEBUG): use DEBUG=1 for the -Og debug build in build-debug/, or leave DEBUG unset)
endif
## BUILD: build directory (build/, or build-debug/ with DEBUG=1)
BUILD   ?= build
# One spelling per directory: the dependency files name each object by the
# path it was built under, so if build-debug/ and /abs/path/build-debug/ were
# both used, header changes would not rebuild the objects of the other one.
override BUILD := $(patsubst $(CURDIR)/%,%,$(abspath $(BUILD)))
OPTFLAGS ?= -O2
## CPUS: harts (-smp) for qemu and qemu-gdb, 1 to the kernel's MAX_HARTS
CPUS    ?= 2
## MEM: guest RAM for qemu and qemu-gdb, in M or G; too little is refused with the minimum
MEM     ?= 128M
## APPEND: kernel command line, passed as is (README: Boot parameters), e.g. APPEND="mm=swap mem=8M"
APPEND  ?=
## ICOUNT: 1 = QEMU -icount, deterministic instruction counts; 0 or empty = off
ICOUNT  ?=
## DISK_SIZE: the disk qemu attaches, disk.img in the build directory (sparse), in K, M or G; empty = no disk
DISK_SIZE ?= 64M
## PD_SIZE: a paging device between memory and the disk (adds pd=PD_SIZE to APPEND; needs APPEND="pc=daemon"), pd.img in the build directory; empty = none
PD_SIZE ?=

# Probe the port's usual cross prefixes; override with CROSS=...
CROSS ?= $(shell for p in $(ARCH_CROSS_PREFIXES); do \
           if command -v $${p}gcc >/dev/null 2>&1; then echo $$p; break; fi; done)

CC      := $(CROSS)gcc
LD      := $(CROSS)ld
OBJCOPY := $(CROSS)objcopy
OBJDUMP := $(CROSS)objdump
PYTHON  ?= python3

COMMON_CFLAGS := -std=c11 -Wall -Wextra -Werror $(OPTFLAGS) -g -ffreestanding -fno-common \
    -fno-stack-protector -fno-pie -fno-omit-frame-pointer -nostdlib $(ARCH_CFLAGS) -MMD -MP
# Generated headers (asm_offsets.h) live in the build directory.
GEN_DIR := $(BUILD)/gen
KCFLAGS := $(COMMON_CFLAGS) -Ikernel/include -Iinclude -I$(ARCH_DIR)/include -I$(GEN_DIR)
KLDFLAGS := -nostdlib -static -no-pie -T $(ARCH_LDSCRIPT) -Wl,-z,max-page-size=4096

# The portable sources and the chosen port's; never another port's, and
# never the offsets file, which is compiled to assembly only.
KERNEL_SRCS := $(sort $(filter-out $(ARCH_ASM_OFFSETS), \
    $(shell find kernel -path kernel/arch -prune -o \( -name '*.c' -o -name '*.S' \) -print) \
    $(shell find $(ARCH_DIR) -name '*.c' -o -name '*.S')))
KERNEL_OBJS := $(patsubst %,$(BUILD)/%.o,$(KERNEL_SRCS))
ASM_OFFSETS := $(GEN_DIR)/asm_offsets.h
KERNEL  := $(BUILD)/kernel.elf
INITRD  := $(BUILD)/initrd.cpio

.PHONY: all kernel user initrd qemu qemu-gdb gdb test test-debug test-host clean toolchain iprofile iprofile-docs \
        check-toolchain bench mmbench pctable repro-multics repro-unix fuzz docs-results help check-knobs
all: check-toolchain $(KERNEL) $(INITRD) ## build kernel, user programs and initrd (the default)

kernel: $(KERNEL) ## build only the kernel, kernel.elf in the build directory

check-toolchain: ## fail with what to install if no RISC-V cross compiler is found
	@if [ -z "$(CROSS)" ]; then \
	  echo "faultline: no $(ARCH) cross compiler found (tried $(addsuffix gcc,$(ARCH_CROSS_PREFIXES)))."; \
	  echo "  On Debian/Ubuntu run:  make toolchain   ($(ARCH_TOOLCHAIN_HINT))"; \
	  exit 1; fi

# Installs the toolchain on Debian/Ubuntu; anywhere else it says what is needed.
toolchain: ## check, and on Debian/Ubuntu install, cross gcc, QEMU and gdb-multiarch
	@$(PYTHON) tools/setup.py

$(BUILD)/%.c.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(KCFLAGS) -c $< -o $@

# Assembly reads offsets into portable structures from asm_offsets.h.
$(BUILD)/%.S.o: %.S $(ASM_OFFSETS)
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	@$(CC) $(KCFLAGS) -D__ASSEMBLY__ -c $< -o $@

# asm_offsets.h: the port's offsets file compiled to assembly, each
# "@ASM_OFFSET NAME VALUE" marker in it turned into "#define NAME VALUE".
# Its .d file makes a change to any header it includes regenerate it.
$(GEN_DIR)/asm_offsets.s: $(ARCH_ASM_OFFSETS)
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	@$(CC) $(KCFLAGS) -S $< -o $@

$(ASM_OFFSETS): $(GEN_DIR)/asm_offsets.s
	@{ echo "/* Generated from $(ARCH_ASM_OFFSETS) by the Makefile: do not edit. */"; \
	  echo "#ifndef FAULTLINE_ASM_OFFSETS_H"; echo "#define FAULTLINE_ASM_OFFSETS_H"; \
	  sed -n 's/^.*@ASM_OFFSET \([A-Z0-9_]*\) \(-\{0,1\}[0-9][0-9]*\).*$$/#define \1 \2/p' $<; \
	  echo "#endif"; } > $@.tmp
	@grep -q '^#define ' $@.tmp || { echo "faultline: no offsets in $<" >&2; rm -f $@.tmp; exit 1; }
	@mv $@.tmp $@

$(KERNEL): $(KERNEL_OBJS) $(ARCH_LDSCRIPT)
	@echo "  LD      $@"
	@$(CC) $(KCFLAGS) $(KLDFLAGS) $(KERNEL_OBJS) -o $@ -lgcc
	@$(OBJDUMP) -d -S $@ > $(BUILD)/kernel.asm

# Data files for the initrd (sources, manual pages...), each stored under
# its base name: the root is flat. A user/*/build.mk may add to it.
FILES :=

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

initrd: $(INITRD) ## build the initrd, initrd.cpio in the build directory

# One shell word, whatever the value holds: 'it'\''s' for it's.
shquote = '$(subst ','\'',$(1))'

# The knobs go to the runner as they were typed: it checks them all and says
# what is wrong before anything is built or started (ICOUNT=0 is off there,
# not "non-empty, so on"; an empty DISK_SIZE means no disk).
RUN := $(PYTHON) tools/run.py --arch $(ARCH_QEMU) --kernel $(KERNEL) --initrd $(INITRD) --cpus $(call shquote,$(CPUS)) \
       --mem $(call shquote,$(MEM)) --append $(call shquote,$(APPEND)$(if $(PD_SIZE), pd=$(PD_SIZE))) \
       --icount=$(call shquote,$(ICOUNT)) --disk-size=$(call shquote,$(DISK_SIZE))

check-knobs: ## check CPUS, MEM, ICOUNT, DISK_SIZE and APPEND; say what is wrong
	@$(RUN) --check

# The knobs are checked first, then the toolchain, and the build runs in a
# second make, so that a toolchain installed just now is found by the CROSS
# probe. run.py refuses to start while another QEMU uses the same disk.
qemu: check-knobs ## boot to the faultline shell on this terminal (Ctrl-A x quits)
	@$(PYTHON) tools/setup.py
	@$(MAKE) --no-print-directory all
	$(RUN) --interactive

qemu-gdb: check-knobs ## like qemu, but harts wait at reset for GDB (then `make gdb` in another terminal)
	@$(PYTHON) tools/setup.py
	@$(MAKE) --no-print-directory all
	$(RUN) --interactive --gdb

# No build here: rebuilding under a running QEMU would give GDB symbols of a
# kernel that is not the one running. run.py checks that they match.
gdb: ## attach gdb-multiarch to the QEMU of `make qemu-gdb`, with the kernel's symbols
	@$(PYTHON) tools/run.py --attach-gdb --kernel $(KERNEL)

# Like qemu: tools (and the Python test packages) first, then the build.
test: ## build, then run every test: host unit tests and QEMU integration tests
	@$(PYTHON) tools/setup.py --test
	@$(MAKE) --no-print-directory all
	FL_BUILD=$(BUILD) FL_ARCH=$(ARCH_QEMU) $(PYTHON) -m pytest -q -n 2 -m "not long" tests

# Microbenchmarks under -icount: one boot per configuration they need
# (default mm with a disk and CPUS harts; mm=swap for swapin; meters=off),
# tables, JSON and plots into $(BUILD)/bench (docs/measurement.md). Fails,
# naming them, if any benchmark is missing or could not run.
# DOCS=1: into docs/results, and rewrite the figures docs/measurement.md quotes.
## DOCS: 1 = bench and mmbench write docs/results and the figures docs/measurement.md quotes
BENCH_OUT   = $(if $(DOCS),docs/results,$(BUILD)/bench)
MMBENCH_OUT = $(if $(DOCS),docs/results,$(BUILD)/mmbench)
bench: all ## microbenchmarks under -icount, one boot per configuration -> build/bench/ (DOCS=1: docs/results)
	$(PYTHON) tools/report.py --arch $(ARCH_QEMU) --kernel $(KERNEL) --initrd $(INITRD) --cpus $(CPUS) --mem $(MEM) \
	  --out-dir $(BENCH_OUT) $(if $(DOCS),--docs-md docs/measurement.md)

# The memory managers compared under -icount on one 4x over-committed hog
# run (mem=8M, 64M swap disk), MMBENCH_RUNS times each (counts that depend
# on when the disk answers move between runs): mm.md, mm.json, mm.png into
# $(BUILD)/mmbench; DOCS=1 into docs/results, with the figures in docs/.
## MMBENCH_RUNS: runs of each memory manager in mmbench (figures that move are shown as ranges)
MMBENCH_RUNS ?= 3
mmbench: all ## memory managers compared under -icount -> build/mmbench/ (DOCS=1: docs/results)
	$(PYTHON) tools/mmbench.py --arch $(ARCH_QEMU) --kernel $(KERNEL) --initrd $(INITRD) --repeat $(MMBENCH_RUNS) \
	  --out-dir $(MMBENCH_OUT) --log-dir $(BUILD)/mmbench $(if $(DOCS),--docs-md docs/measurement.md)

# CPU per page fault by who spends it, pc=inline against pc=daemon, under
# -icount on one hart (docs/measurement.md, "Page control per fault"):
# prints the tables, writes pctable.json and pctable.md to $(BUILD)/pctable.
pctable: all ## CPU per page fault by who spends it, pc=inline vs pc=daemon -> build/pctable/
	$(PYTHON) tools/pctable.py --arch $(ARCH_QEMU) --kernel $(KERNEL) --initrd $(INITRD) --match \
	  --workdir $(BUILD)/pctable --json $(BUILD)/pctable/pctable.json --md $(BUILD)/pctable/pctable.md

# The Multics page-control experiments (tools/multics.py): Tables III and
# IV (pctable, one hart, icount) and the idle-time experiment (two harts,
# a background load of varied duty cycle), with a progress bar, into
# docs/results/multics.md and its plots; QUICK=1 a small run into
# $(BUILD)/multics-quick (what tests/test_multics.py runs).
## QUICK: 1 = make repro-multics and repro-unix run a small version (a check of the tool, not results)
QUICK ?=
repro-multics: all ## Multics Tables III/IV and the idle-time experiment, inline vs daemon -> docs/results/multics.md
	$(PYTHON) tools/multics.py --arch $(ARCH_QEMU) --kernel $(KERNEL) --initrd $(INITRD) \
	  $(if $(QUICK),--quick --out $(BUILD)/multics-quick,--out docs/results) --workdir $(BUILD)/multics

# Paged versus swapped UNIX (papers/003; tools/repro_unix.py): the
# paper's shell-script probe (user/files/unix/probe) timing man man, a
# CPU-bound job and a compile under mm=swap and mm=paging, for a range of
# simulated users (usersim), on one hart scaled like a VAX 11/780
# (-icount shift=10, mem=4M, disklat=30ms), two QEMUs at a time, with a
# progress bar: docs/results/unix.md and its plots. QUICK=1: a small run
# into $(BUILD)/unix-quick (what tests/test_unix.py runs).
repro-unix: all ## paged vs swapped UNIX, response time against load -> docs/results/unix.md
	$(PYTHON) tools/repro_unix.py --arch $(ARCH_QEMU) --kernel $(KERNEL) --initrd $(INITRD) \
	  $(if $(QUICK),--quick --out $(BUILD)/unix-quick,--out docs/results) --workdir $(BUILD)/unix

# The random-system-call campaign (docs/fuzz.md): `fuzz` in every machine
# configuration (both memory managers, 1 and 2 harts, with and without
# memory pressure), FUZZ_CALLS calls shared among them; fails on a panic,
# a hang, a silent shell or a leaked frame or swap slot. The table and
# summary.json go to $(BUILD)/fuzz.
## FUZZ_CALLS: system calls in all for `make fuzz`, shared equally by its configurations
FUZZ_CALLS ?= 1000000
## FUZZ_SEED: the seed of `make fuzz` (the same seed makes the same calls)
FUZZ_SEED ?= 1
fuzz: all ## random system calls in every configuration, checked for panics, hangs and leaks -> build/fuzz/
	$(PYTHON) tools/fuzz.py --kernel $(KERNEL) --initrd $(INITRD) --calls $(FUZZ_CALLS) \
	  --seed $(FUZZ_SEED) --out-dir $(BUILD)/fuzz

# One kernel path's instructions by function (tools/iprofile.py): GDB
# single-steps the trap from its entry to the sret back to user mode.
## EVENT: the trap `make iprofile` steps: fault, fault:load, fault:store, fault:exec or syscall:NAME
EVENT ?= fault:store
## WORKLOAD: the shell command that makes EVENT for `make iprofile` (default: the lat benchmark that does)
WORKLOAD ?=
iprofile: all ## instructions of one kernel path by function, single-stepped in GDB (EVENT=, WORKLOAD=)
	$(PYTHON) tools/iprofile.py $(EVENT) $(if $(WORKLOAD),--run "$(WORKLOAD)") --timeline \
	  --kernel $(KERNEL) --initrd $(INITRD) --arch $(ARCH_QEMU)
iprofile-docs: all ## every fast path's instructions by function -> docs/results/iprofile.md
	$(PYTHON) tools/iprofile.py --suite docs/results/iprofile.md \
	  --kernel $(KERNEL) --initrd $(INITRD) --arch $(ARCH_QEMU)

# Every result kept in docs/ regenerated from one build: docs/results/* and
# the generated blocks of docs/measurement.md (tests/test_docs.py checks
# that they are in the tools' format). Both runs first, then the status.
docs-results: all ## regenerate docs/results and the figures docs/measurement.md quotes
	@rc=0; $(MAKE) --no-print-directory bench DOCS=1 || rc=1; \
	  $(MAKE) --no-print-directory mmbench DOCS=1 || rc=1; exit $$rc

# The same suite against the DEBUG=1 build (build-debug/), whose kernel
# checks the lock order on every acquisition (kernel/lock/lockrank.c). DEBUG=1
# goes to the build only: the tests' own make runs (test_make.py) must not
# inherit it.
TEST_DEBUG_BUILD = $(if $(filter 1,$(strip $(DEBUG))),$(BUILD),$(DEBUG_BUILD))
test-debug: ## build with DEBUG=1 (lock-rank checks on), then run every test against build-debug/
	@$(PYTHON) tools/setup.py --test
	@$(MAKE) --no-print-directory all DEBUG=1 BUILD=$(TEST_DEBUG_BUILD)
	FL_BUILD=$(TEST_DEBUG_BUILD) FL_ARCH=$(ARCH_QEMU) $(PYTHON) -m pytest -q -n 2 -m "not long" tests

test-host: ## only the host unit tests (no QEMU, no cross build)
	FL_BUILD=$(BUILD) $(PYTHON) -m pytest -q -m host tests

clean: ## remove the build directory (build/, or build-debug/ with DEBUG=1)
	rm -rf $(BUILD)

# `make help`: targets from their `## text` rule lines, knobs from their
# `## NAME: text` lines, each knob with the value it has now.
HELP_FILES := $(filter-out %.d,$(MAKEFILE_LIST))
HELP_KNOBS  = $(shell sed -n 's/^## \([A-Z_][A-Z0-9_]*\): .*/\1/p' $(HELP_FILES))
help: ## this list: every target and knob
	@echo "Targets (make TARGET):"
	@sed -n 's/^\([a-zA-Z0-9_.-][a-zA-Z0-9_.-]*\):.*## \(.*\)$$/\1\t\2/p' $(HELP_FILES) | \
	    awk -F'\t' '{ printf "  %-16s %s\n", $$1, $$2 }'
	@echo "Knobs (make qemu CPUS=4 ...; [value now]):"
	@$(foreach k,$(HELP_KNOBS),printf '  %-10s %-14s %s\n' $(call shquote,$(k)) \
	    $(call shquote,[$($(k))]) "$$(sed -n 's/^## $(k): //p' $(HELP_FILES))";)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
