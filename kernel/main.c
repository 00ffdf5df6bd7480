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
#include "plic.h"
#include "blk.h"
#include "blk_selftest.h"
#include "printk.h"
#include "kstring.h"
#include <arch/arch.h>
#include <arch/sbi.h>

#define MIB (1024UL * 1024UL)

struct cpu cpus[MAX_HARTS];
uint32_t ncpus;
struct board_info board;
struct boot_params params;

extern char __kernel_end[];

static _Noreturn void early_fail(const char *msg)
{
    for (const char *s = msg; *s; s++)
        sbi_console_putchar(*s);
    arch_poweroff(EXIT_CODE_PANIC);
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
        cpus[i].plic_context = FDT_NO_CONTEXT;
        for (int h = 0; h < board.nharts; h++)
            if (board.hart_ids[h] == cpus[i].hartid)
                cpus[i].plic_context = board.plic_s_context[h];
    }
}

static void add_reserved(struct mem_range *r, int *n, uint64_t base, uint64_t size)
{
    if (size && *n < MAX_RESERVED_RANGES + 3)
        r[(*n)++] = (struct mem_range){ base, size };
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
    frames_init(ram_base, ram_top, kernel_end, reserved, n);

    paddr_t phys_top = ram_end;
    if (board.initrd_end > phys_top)
        phys_top = board.initrd_end;
    kmap_init(phys_top);
    kprintf("faultline: memory: %lu MiB at 0x%lx, managing %lu MiB (%lu frames free)\n",
            board.memory[0].size / MIB, ram_base, (ram_top - ram_base) / MIB, frames_free_count());
}

static void banner(void)
{
    char desc[128];
    params_describe(&params, desc, sizeof desc);
    kprintf("faultline: harts: %u (boot hart %u)%s\n", ncpus, cpus[0].hartid,
            board.harts_ignored ? ", some ignored: more than MAX_HARTS" : "");
    kprintf("faultline: bootargs: \"%s\"\n", board.bootargs);
    kprintf("faultline: params: %s\n", desc);
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
    mm_start();
    proc_start_init(params.init);
}

_Noreturn void kmain(uint64_t hartid, uint64_t dtb_pa)
{
    arch_cpu_set_self(&cpus[0]);
    const void *dtb = (const void *)PA_TO_KVA(dtb_pa);
    if (fdt_scan(dtb, &board) != 0)
        early_fail("faultline: the device tree is damaged; cannot boot\n");
    if (board.uart.present)
        uart_init(board.uart.base);
    kprintf("\nfaultline %s (riscv64) booting on hart %lu\n", FAULTLINE_VERSION, hartid);

    char err[200];
    if (params_parse(board.bootargs, &params, err, sizeof err)) {
        kprintf("faultline: bad boot parameter: %s\n", err);
        arch_poweroff(EXIT_CODE_BADPARAM);
    }
    setup_cpus(hartid);
    arch_hart_init(&cpus[0]);
    banner();
    counters_init();
    setup_memory(dtb_pa);
    cpus[0].active_root = kernel_pagetable;
    kprintf("faultline: ipi: %s\n", arch_ipi_init());

    if (board.plic.present && cpus[0].plic_context != FDT_NO_CONTEXT) {
        plic_init(board.plic.base);
        plic_hart_init(cpus[0].plic_context);
        if (board.uart.present)
            plic_enable(board.uart.irq, cpus[0].plic_context);
    } else {
        kprintf("faultline: no PLIC context for the boot hart: no console input\n");
    }
    blk_init();          /* no I/O: only finds, negotiates and routes the interrupt */
    const void *initrd = board.initrd_end > board.initrd_start ? (const void *)PA_TO_KVA(board.initrd_start) : NULL;
    files_init(initrd, board.initrd_end - board.initrd_start);
    kprintf("faultline: initrd: %d files, %lu bytes\n", rootfs_initrd_count(),
            board.initrd_end - board.initrd_start);

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
    if (board.plic.present && c->plic_context != FDT_NO_CONTEXT)
        plic_hart_init(c->plic_context);
    __atomic_store_n(&c->online, true, __ATOMIC_SEQ_CST);
    kprintf("faultline: hart %lu online\n", hartid);
    timer_start_hart(c);
    scheduler();
}
