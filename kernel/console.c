/*
 * The console: kernel and user output to the UART, and a line discipline
 * for input (echo, backspace, ^U kills the line, ^D ends input, CR as NL).
 * A reader sleeps until a whole line (or ^D) has been typed.
 *
 * Lock: console_lock (spin); taken from the UART interrupt too.
 */
#include "console.h"
#include "uart.h"
#include "spinlock.h"
#include "proc.h"
#include "signal.h"
#include "config.h"
#include <arch/sbi.h>
#include <faultline/errno.h>

#define CTRL(c)   ((c) - '@')
#define KEY_BACKSPACE  0x08
#define KEY_DELETE     0x7f

static struct spinlock console_lock = SPINLOCK_INIT("console");
static bool panicking;

/* Ring of typed bytes: [r, w) is committed (readable), [w, e) is being edited. */
static struct {
    char buf[CONSOLE_BUF_SIZE];
    uint32_t r, w, e;
} in;

static void out(char c)
{
    if (uart_ready()) {
        if (c == '\n')
            uart_putc('\r');
        uart_putc(c);
    } else {
        sbi_console_putchar(c);
    }
}

void console_panic_mode(void) { panicking = true; }

void console_write(const char *s, size_t n)
{
    if (panicking) {
        for (size_t i = 0; i < n; i++) out(s[i]);
        return;
    }
    spin_lock(&console_lock);
    for (size_t i = 0; i < n; i++) out(s[i]);
    spin_unlock(&console_lock);
}


static void erase_one(void)
{
    in.e--;
    out(KEY_BACKSPACE); out(' '); out(KEY_BACKSPACE);
}

void console_input(int c)
{
    spin_lock(&console_lock);
    if (c == '\r')
        c = '\n';
    switch (c) {
    case CTRL('U'):
        while (in.e != in.w && in.buf[(in.e - 1) % CONSOLE_BUF_SIZE] != '\n')
            erase_one();
        break;
    case KEY_BACKSPACE:
    case KEY_DELETE:
        if (in.e != in.w)
            erase_one();
        break;
    default:
        if (c == 0 || in.e - in.r >= CONSOLE_BUF_SIZE)
            break;             /* full: drop, the line must be finished first */
        in.buf[in.e++ % CONSOLE_BUF_SIZE] = (char)c;
        if (c != CTRL('D'))
            out((char)c);
        if (c == '\n' || c == CTRL('D') || in.e - in.r == CONSOLE_BUF_SIZE) {
            in.w = in.e;
            wakeup(&in.r);
        }
        break;
    }
    spin_unlock(&console_lock);
}

long console_read(char *dst, size_t n)
{
    size_t got = 0;
    spin_lock(&console_lock);
    while (in.r == in.w) {
        if (thread_interrupted()) {
            spin_unlock(&console_lock);
            return -EINTR;
        }
        sleep_on_intr(&in.r, &console_lock);
    }
    while (got < n && in.r != in.w) {
        char c = in.buf[in.r++ % CONSOLE_BUF_SIZE];
        if (c == CTRL('D')) {
            if (got > 0)
                in.r--;        /* leave ^D for the next read, which returns 0 */
            break;
        }
        dst[got++] = c;
        if (c == '\n')
            break;
    }
    spin_unlock(&console_lock);
    return (long)got;
}
