/*
 * Boot: kmain() runs on the boot hart once entry.S has turned on the boot
 * page table. Order matters: the device tree first (everything else comes
 * from it), then the console, boot parameters, memory, the kernel page
 * table, devices, the first process, and finally the other harts.
 */
#include "board.h"
#include "cpu.h"
#include "proc.h"
#include "frame.h"
#include "kmap.h"
#include "mmu.h"
#include "file.h"
#include "ktime.h"
#include "counters.h"
#include "meter.h"
#include "mm.h"
#include "uart.h"
#include "irq.h"
#include "blk.h"
#include "blk_selftest.h"
#include "printk.h"
#include "kstring.h"
#include "elf.h"
#include "aspace.h"
#include <faultline/errno.h>
#include <arch/arch.h>

#define MIB (1024UL * 1024UL)

struct cpu cpus[MAX_HARTS];
uint32_t ncpus;
struct board_info board;
struct boot_params params;

extern char __kernel_end[];

static _Noreturn void early_fail(const char *msg)
{
    for (const char *s = msg; *s; s++)
        arch_early_putchar(*s);
    arch_poweroff(EXIT_CODE_PANIC);
}

/* Without a device tree there is no UART and no exit device: this goes
 * through the firmware's console, and QEMU's exit status cannot say why. */
static _Noreturn void fdt_failed(int rc)
{
    char msg[BOOT_ERROR_MAX];
    ksnprintf(msg, sizeof msg, "faultline: the device tree is damaged or too big (%s); "
              "cannot boot\n", fdt_strerror(rc));
    early_fail(msg);
}

/* The boot hart is cpu 0; the others follow in device-tree order. */
static void setup_cpus(uint64_t boot_hartid)
{
    ncpus = 0;
    cpus[ncpus++].hartid = (uint32_t)boot_hartid;
    for (int i = 0; i < board.nharts; i++)
        if (board.hart_ids[i] != boot_hartid)
            cpus[ncpus++].hartid = board.hart_ids[i];
    for (uint32_t i = 0; i < ncpus; i++) {
        cpus[i].id = i;
        cpus[i].active_root = 0;
    }
}

/* Never a panic (param.h). */
_Noreturn void boot_refused(const char *fmt, ...)
{
    char why[BOOT_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    kvsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    kprintf("faultline: bad boot parameter: %s\n", why);
    arch_poweroff(EXIT_CODE_BADPARAM);
}

/*
 * QEMU loads the initrd where it likes (half way up RAM on virt) and does
 * not check that all of it lands in RAM: with too little memory the end of
 * it is in a hole, and reading it would fault. Say so instead.
 */
static void check_initrd_in_ram(void)
{
    if (board.initrd_end <= board.initrd_start || board.nmemory == 0)
        return;
    paddr_t ram_end = board.memory[0].base + board.memory[0].size;
    if (board.initrd_start < board.memory[0].base || board.initrd_end > ram_end)
        boot_refused("the initrd (0x%lx-0x%lx) does not fit in RAM (0x%lx-0x%lx); "
                     "give the machine more memory (QEMU -m, make MEM=)",
                     board.initrd_start, board.initrd_end, board.memory[0].base, ram_end);
}

/* init= names a program that must exist and load: checked here, before
 * anything runs, so that a typo is a boot error and not a panic in the
 * first process. */
static void check_init_program(void)
{
    struct initrd_file f;
    struct elf_image img;
    int rc = rootfs_find_program(params.init, &f);
    if (rc == -ENOENT)
        boot_refused("init=%s: no such file in the initrd; valid: a program in the initrd, "
                     "e.g. init=/init or init=/sh (`ls` at the shell lists them)", params.init);
    if (rc != 0)
        boot_refused("init=%s: not a program (a directory); valid: a program in the initrd, "
                     "e.g. init=/init or init=/sh", params.init);
    if (elf_parse(f.data, f.size, USER_BASE, USER_HEAP_LIMIT, &img) != 0)
        boot_refused("init=%s: not a program this kernel can run (not a RISC-V ELF "
                     "executable); valid: a program in the initrd, e.g. init=/init or init=/sh",
                     params.init);
}

static void add_reserved(struct mem_range *r, int *n, uint64_t base, uint64_t size)
{
    if (size && *n < MAX_RESERVED_RANGES + 3)
        r[(*n)++] = (struct mem_range){ base, size };
}

/*
 * frames_init puts the core map (one struct frame per page) straight after
 * the kernel. With much memory it is long enough to run over what QEMU
 * loaded above the kernel (the initrd, 128 MiB up on virt) and the boot
 * would go on with a wiped initrd. Refuse that, and say how much memory
 * does fit, until the core map is placed around what it must not cover.
 */
static void check_core_map_room(paddr_t ram_base, paddr_t ram_top, paddr_t kernel_end,
                                const struct mem_range *reserved, int n)
{
    paddr_t map_start = ALIGN_UP(kernel_end, PAGE_SIZE);
    uint64_t nframes = (ram_top - ram_base) >> PAGE_SHIFT;
    paddr_t map_end = map_start + ALIGN_UP(nframes * sizeof(struct frame), PAGE_SIZE);
    paddr_t limit = map_end;
    for (int i = 0; i < n; i++)
        if (reserved[i].base >= map_start && reserved[i].base < limit)
            limit = reserved[i].base;
    if (limit == map_end)
        return;
    uint64_t fits = ((limit - map_start) / sizeof(struct frame)) << PAGE_SHIFT;
    boot_refused("%lu MiB of memory needs a %lu KiB core map after the kernel, which would "
                 "overwrite what the boot loader put at 0x%lx; valid: at most mem=%luM "
                 "(or give the machine less memory)",
                 (ram_top - ram_base) / MIB, (map_end - map_start) / 1024, limit, fits / MIB);
}

static void setup_memory(paddr_t dtb_pa)
{
    if (board.nmemory == 0)
        early_fail("faultline: the device tree lists no memory\n");
    paddr_t ram_base = board.memory[0].base;
    paddr_t ram_end = ram_base + board.memory[0].size;
    paddr_t ram_top = ram_end;
    if (params.mem_limit) {
        if (params.mem_limit < MIN_USABLE_MEMORY) {
            kprintf("faultline: bad boot parameter: mem=%lu KiB is below the minimum of %lu KiB\n",
                    params.mem_limit / 1024, MIN_USABLE_MEMORY / 1024);
            arch_poweroff(EXIT_CODE_BADPARAM);
        }
        if (ram_base + params.mem_limit < ram_top)
            ram_top = ram_base + params.mem_limit;
    }
    struct mem_range reserved[MAX_RESERVED_RANGES + 3];
    int n = 0;
    for (int i = 0; i < board.nreserved; i++)
        add_reserved(reserved, &n, board.reserved[i].base, board.reserved[i].size);
    add_reserved(reserved, &n, dtb_pa, fdt_total_size((const void *)PA_TO_KVA(dtb_pa)));
    add_reserved(reserved, &n, board.initrd_start, board.initrd_end - board.initrd_start);

    paddr_t kernel_end = KVA_TO_PA((uint64_t)__kernel_end);
    if (kernel_end + MIN_USABLE_MEMORY / 2 > ram_top) {
        kprintf("faultline: bad boot parameter: mem= leaves no room after the kernel\n");
        arch_poweroff(EXIT_CODE_BADPARAM);
    }
    check_core_map_room(ram_base, ram_top, kernel_end, reserved, n);
    frames_init(ram_base, ram_top, kernel_end, reserved, n);

    paddr_t phys_top = ram_end;
    if (board.initrd_end > phys_top)
        phys_top = board.initrd_end;
    kmap_init(phys_top);
    if (!params.quiet)
        kprintf("faultline: memory: %lu MiB at 0x%lx, managing %lu MiB (%lu frames free)\n",
                board.memory[0].size / MIB, ram_base, (ram_top - ram_base) / MIB, frames_free_count());
}

static void banner(void)
{
    char desc[128];
    params_describe(&params, desc, sizeof desc);
#ifdef FL_DEBUG
    /* make DEBUG=1: -Og, and the checks that only debug builds make */
    kprintf("faultline: debug build (FL_DEBUG)\n");
#endif
    /* quiet: the banner lines that describe a boot that went as asked are
     * left out; a line that reports a problem never is. */
    if (params.quiet) {
        if (board.harts_ignored)
            kprintf("faultline: harts: some ignored: more than MAX_HARTS\n");
        return;
    }
    kprintf("faultline: harts: %u (boot hart %u)%s\n", ncpus, cpus[0].hartid,
            board.harts_ignored ? ", some ignored: more than MAX_HARTS" : "");
    kprintf("faultline: bootargs: \"%s\"\n", board.bootargs);
    kprintf("faultline: params: %s\n", desc);
}

/*
 * selftest=lockorder: takes a lock of a low rank while holding one of a
 * higher rank, against the order of lockrank.h. The debug build's checks
 * panic naming both; a release build makes no checks, says so, and boots
 * on (the two locks are the selftest's own: nothing else ever waits for
 * them, so taking them out of order here cannot deadlock).
 */
static void lockorder_selftest(void)
{
    static struct spinlock outer = SPINLOCK_INIT("selftest outer", LOCK_RANK_FRAMES);
    static struct spinlock inner = SPINLOCK_INIT("selftest inner", LOCK_RANK_WAIT);
    kprintf("faultline: selftest: lockorder: taking '%s' (rank %u) under '%s' (rank %u)\n",
            inner.name, inner.rank, outer.name, outer.rank);
    spin_lock(&outer);
    spin_lock(&inner);
    spin_unlock(&inner);
    spin_unlock(&outer);
#ifdef FL_DEBUG
    panic("selftest: lockorder: the lock-rank checks let '%s' be taken under '%s'",
          inner.name, outer.name);
#else
    kprintf("faultline: selftest: lockorder: not checked: this build has no lock-rank "
            "checks (make DEBUG=1 has them)\n");
#endif
}

/* selftest=panic|kfault: fail on purpose, to show (and test) what a kernel
 * bug looks like: the FL-PANIC line, a backtrace, QEMU's exit code 3. */
static void run_selftest(void)
{
    switch (params.selftest) {
    case SELFTEST_PANIC:
        panic("selftest: panic requested on the command line");
    case SELFTEST_KFAULT: {
        volatile uint64_t *unmapped = (volatile uint64_t *)KSTACK_AREA_BASE;  /* a guard page */
        kprintf("faultline: selftest: reading 0x%lx from the kernel\n", (uint64_t)unmapped);
        (void)*unmapped;
        break;
    }
    case SELFTEST_LOCKORDER:
        lockorder_selftest();
        break;
    case SELFTEST_BLK:          /* needs sleeping: finish_boot runs it */
    case SELFTEST_NONE:
        break;
    }
}

/*
 * Starts the other harts from a kernel thread, so waiting costs nothing.
 * A start request can race the firmware's own start-up (the hart then
 * enters at _start, loses the boot lottery and stops itself), so each hart
 * is asked again, whenever the firmware reports it stopped, until it is
 * online or HART_START_TRIES attempts have passed.
 */
#define HART_START_TRIES     200
#define HART_START_RETRY_MS  5

static void start_secondary_harts(void)
{
    for (uint32_t i = 1; i < ncpus; i++) {
        int tries = 0;
        while (!__atomic_load_n(&cpus[i].online, __ATOMIC_SEQ_CST)) {
            if (tries++ == HART_START_TRIES) {
                kprintf("faultline: hart %u did not start\n", cpus[i].hartid);
                break;
            }
            if (arch_hart_stopped(cpus[i].hartid))
                arch_hart_start(cpus[i].hartid, i);
            sleep_ms(HART_START_RETRY_MS);
        }
    }
}

/* The rest of the boot runs as a kernel thread, so it may sleep: bring the
 * other harts online first (their banner lines then come before anything
 * init prints), run selftest=blk (disk I/O sleeps), then start init. */
static void finish_boot(void *unused)
{
    (void)unused;
    start_secondary_harts();
    if (params.selftest == SELFTEST_BLK)
        blk_selftest();
    proc_start_init(params.init);
    /* After init, which keeps pid 1: page control's system processes
     * (pc=daemon) come next. */
    mm_start();
}

_Noreturn void kmain(uint64_t hartid, uint64_t dtb_pa)
{
    arch_cpu_set_self(&cpus[0]);
    const void *dtb = (const void *)PA_TO_KVA(dtb_pa);
    int rc = fdt_scan(dtb, &board);
    if (rc != 0)
        fdt_failed(rc);
    if (board.uart.present)
        uart_init(board.uart.base);
    kprintf("\nfaultline %s (%s) booting on hart %lu\n", FAULTLINE_VERSION, ARCH_NAME, hartid);
    const char *missing = arch_board_unsupported();
    if (missing) {
        kprintf("faultline: cannot run on these harts: they lack %s\n", missing);
        arch_poweroff(EXIT_CODE_PANIC);
    }

    char err[BOOT_ERROR_MAX];
    if (board.bootargs_too_long)
        boot_refused("the command line is longer than %d characters; valid: a command "
                     "line of at most %d characters", BOOTARGS_MAX - 1, BOOTARGS_MAX - 1);
    if (params_parse(board.bootargs, &params, err, sizeof err))
        boot_refused("%s", err);
    check_initrd_in_ram();
    setup_cpus(hartid);
    arch_hart_init(&cpus[0]);
    banner();
    counters_init();
    setup_memory(dtb_pa);
    cpus[0].active_root = kernel_pagetable;
    const char *ipi = arch_ipi_init();
    if (!params.quiet)
        kprintf("faultline: ipi: %s\n", ipi);

    const char *no_irqs = arch_irq_init();
    if (no_irqs)
        kprintf("faultline: no device interrupts (%s): no console input\n", no_irqs);
    else if (board.uart.present)
        uart_attach_irq(board.uart.irq);
    blk_init();          /* no I/O: only finds, negotiates and routes the interrupt */
    const void *initrd = board.initrd_end > board.initrd_start ? (const void *)PA_TO_KVA(board.initrd_start) : NULL;
    files_init(initrd, board.initrd_end - board.initrd_start);
    if (!params.quiet)
        kprintf("faultline: initrd: %d files, %lu bytes\n", rootfs_initrd_count(),
                board.initrd_end - board.initrd_start);
    check_init_program();

    run_selftest();
    mm_init();
    meters_init(params.meters == METERS_ON);
    threads_init();
    procs_init();
    time_init(board.timebase_hz);
    cpus[0].online = true;
    if (!kthread_create("boot", finish_boot, NULL, -1))
        panic("no thread to finish booting");
    timer_start_hart(&cpus[0]);
    scheduler();
}

_Noreturn void secondary_main(uint64_t hartid, uint64_t cpu_index)
{
    struct cpu *c = &cpus[cpu_index];
    mmu_activate(kernel_pagetable);
    c->active_root = kernel_pagetable;
    arch_hart_init(c);
    arch_irq_hart_init(c);
    __atomic_store_n(&c->online, true, __ATOMIC_SEQ_CST);
    if (!params.quiet)
        kprintf("faultline: hart %lu online\n", hartid);
    timer_start_hart(c);
    scheduler();
}
