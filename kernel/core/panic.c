/* Kernel panics: a fixed tag, the reason, a backtrace, then QEMU exits
 * with EXIT_CODE_PANIC so a scripted run sees the failure. */
#include "printk.h"
#include "console.h"
#include "cpu.h"
#include "config.h"

volatile bool kernel_panicked;

static bool first_pc_is_exact;

/* Frame 0 of a trap is the faulting instruction itself; every other pc is
 * a return address (tools/symbolize.py looks those up at pc-1). */
static void emit_frame(int depth, uint64_t pc)
{
    kprintf("FL-BT: #%d 0x%lx%s\n", depth, pc, depth == 0 && first_pc_is_exact ? " trap" : "");
}

static _Noreturn void vpanic(uint64_t pc, uint64_t fp, bool exact, const char *fmt, va_list ap)
{
    first_pc_is_exact = exact;
    arch_intr_off();
    console_panic_mode();
    char msg[200];
    kvsnprintf(msg, sizeof msg, fmt, ap);
    if (kernel_panicked) {
        kprintf("FL-PANIC: (nested) %s\n", msg);
        arch_poweroff(EXIT_CODE_PANIC);
    }
    kernel_panicked = true;
    kprintf("FL-PANIC: %s\n", msg);
    arch_backtrace(pc, fp, emit_frame);
    arch_poweroff(EXIT_CODE_PANIC);
}

_Noreturn void panic(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    /* Start the backtrace at our caller: its pc, and its frame pointer,
     * which our own frame saved just below the return address. */
    uint64_t caller_fp = ((uint64_t *)arch_frame_pointer())[-2];
    vpanic((uint64_t)__builtin_return_address(0), caller_fp, false, fmt, ap);
}

_Noreturn void panic_at(uint64_t pc, uint64_t fp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vpanic(pc, fp, true, fmt, ap);
}
