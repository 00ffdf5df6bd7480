/* Kernel panics: a fixed tag, the reason, a backtrace, then QEMU exits
 * with EXIT_CODE_PANIC so a scripted run sees the failure. */
#include "printk.h"
#include "console.h"
#include "cpu.h"
#include "config.h"

volatile bool kernel_panicked;

static void emit_frame(int depth, uint64_t pc)
{
    kprintf("FL-BT: #%d 0x%lx\n", depth, pc);
}

static _Noreturn void vpanic(uint64_t pc, uint64_t fp, const char *fmt, va_list ap)
{
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
    vpanic((uint64_t)__builtin_return_address(0), arch_frame_pointer(), fmt, ap);
}

_Noreturn void panic_at(uint64_t pc, uint64_t fp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vpanic(pc, fp, fmt, ap);
}
