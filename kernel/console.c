/*
 * The console: kernel and user output to the UART, and a line discipline
 * for input (echo, backspace, ^U kills the line, ^D ends input, CR as NL).
 *
 * Input: the UART interrupt hands every received byte to the line
 * discipline from the moment interrupts are on, before any process reads,
 * so input typed ahead (even during boot) waits in a ring of
 * CONSOLE_BUF_SIZE bytes. When the ring is full the console stops taking
 * bytes: it masks the UART's receive interrupt, the UART's FIFO fills, and
 * QEMU stops reading the host's terminal, where the rest waits. A reader
 * that makes room unmasks it again. Nothing is dropped on the way.
 *
 * A line is edited until its newline; one that reaches FL_CONSOLE_LINE_MAX
 * bytes without one is handed to the reader as it is, and the rest of it
 * follows as more pieces (the shell then reports the whole line as too
 * long). A reader sleeps until a piece, a whole line or ^D is there.
 *
 * Lock: console_lock (spin); taken from the UART interrupt too.
 */
#include "console.h"
#include "uart.h"
#include "spinlock.h"
#include "proc.h"
#include "signal.h"
#include "usercopy.h"
#include "config.h"
#include <arch/sbi.h>
#include <faultline/errno.h>

#define CTRL(c)   ((c) - '@')
#define KEY_BACKSPACE  0x08
#define KEY_DELETE     0x7f

_Static_assert((CONSOLE_BUF_SIZE & (CONSOLE_BUF_SIZE - 1)) == 0,
               "free-running 32-bit indexes need a power-of-two ring");
_Static_assert(CONSOLE_BUF_SIZE >= 2 * FL_CONSOLE_LINE_MAX,
               "the ring holds a line being read and the next one being typed");

static struct spinlock console_lock = SPINLOCK_INIT("console");
static bool panicking;

/* Ring of typed bytes: [r, w) is committed (readable), [w, e) is the line
 * being edited. held: the ring was full and the UART's receive interrupt
 * is masked. */
static struct {
    char buf[CONSOLE_BUF_SIZE];
    uint32_t r, w, e;
    bool held;
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

static bool ring_has_room(void) { return in.e - in.r < CONSOLE_BUF_SIZE; }

static void erase_one(void)
{
    in.e--;
    out(KEY_BACKSPACE); out(' '); out(KEY_BACKSPACE);
}

static void commit(void)
{
    in.w = in.e;
    wakeup(&in.r);
}

/* One received byte through the line discipline; caller holds the lock
 * and has checked there is room. */
static void receive(int c)
{
    if (c == '\r')
        c = '\n';
    switch (c) {
    case CTRL('U'):
        while (in.e != in.w)
            erase_one();
        break;
    case KEY_BACKSPACE:
    case KEY_DELETE:
        if (in.e != in.w)
            erase_one();
        break;
    case 0:
        break;                 /* a line break condition reads as NUL: not input */
    default:
        in.buf[in.e++ % CONSOLE_BUF_SIZE] = (char)c;
        if (c != CTRL('D'))
            out((char)c);
        if (c == '\n' || c == CTRL('D') || in.e - in.w == FL_CONSOLE_LINE_MAX)
            commit();
        break;
    }
}

void console_receive(void)
{
    spin_lock(&console_lock);
    while (ring_has_room()) {
        int c = uart_getc();
        if (c < 0)
            break;
        receive(c);
    }
    if (!ring_has_room() && !in.held) {
        in.held = true;               /* the rest waits in the UART and the host */
        uart_rx_interrupts(false);
    }
    spin_unlock(&console_lock);
}

/* Takes up to n committed bytes, stopping after a newline; *done is set
 * when the read should end there (newline or ^D). block: this is the
 * read's first step, which sleeps until there is something to take
 * (-EINTR if a signal comes first); a later step returns 0 when there is
 * nothing. Caller holds the lock. */
static long take(char *dst, size_t n, bool block, bool *done)
{
    size_t got = 0;
    *done = false;
    while (in.r == in.w) {
        if (!block)
            return 0;
        if (thread_interrupted())
            return -EINTR;
        sleep_on_intr(&in.r, &console_lock);
    }
    while (got < n && in.r != in.w) {
        char c = in.buf[in.r++ % CONSOLE_BUF_SIZE];
        if (c == CTRL('D')) {
            if (got > 0 || !block)
                in.r--;        /* this read has bytes: leave ^D for the next, which returns 0 */
            *done = true;
            break;
        }
        dst[got++] = c;
        if (c == '\n') {
            *done = true;
            break;
        }
    }
    if (in.held && ring_has_room()) {
        in.held = false;       /* room again: let the UART's bytes in */
        uart_rx_interrupts(true);
    }
    return (long)got;
}

long console_read_user(uint64_t ubuf, uint64_t n)
{
    char chunk[CONSOLE_READ_CHUNK];
    uint64_t copied = 0;
    bool done = false;
    /* The first step may sleep; later ones take only what is already
     * committed, so a read returns at most one line, as before. */
    while (copied < n && !done) {
        spin_lock(&console_lock);
        long got = take(chunk, MIN(n - copied, sizeof chunk), copied == 0, &done);
        spin_unlock(&console_lock);
        if (got < 0)
            return got;
        if (got == 0)
            break;
        if (copy_to_user(ubuf + copied, chunk, (uint64_t)got))
            return -EFAULT;
        copied += (uint64_t)got;
    }
    return (long)copied;
}
