/* Kernel console output and panics. */
#ifndef FAULTLINE_PRINTK_H
#define FAULTLINE_PRINTK_H

#include "types.h"
#include <stdarg.h>

void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int  ksnprintf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int  kvsnprintf(char *buf, size_t len, const char *fmt, va_list ap);

/* Prints "FL-PANIC: ..." and a backtrace, then ends QEMU with EXIT_CODE_PANIC. */
_Noreturn void panic(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void panic_at(uint64_t pc, uint64_t fp, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define KASSERT(cond) \
    do { if (!(cond)) panic("assertion failed: %s (%s:%d)", #cond, __FILE__, __LINE__); } while (0)

extern volatile bool kernel_panicked;

#endif
