/*
 * The console: kernel and user output to the UART, and a line discipline
 * for input (echo, backspace, ^U kills the line, ^D ends input, CR as NL,
 * ^C and ^\ signal the foreground process group).
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
 * Foreground group: ^C (SIGINT) and ^\ (SIGQUIT) go to every process of
 * the console's foreground process group (pgrp.c), and only a process of
 * that group may read: a reader of another group (a background job) waits
 * until its group is in the foreground, so it cannot take what was typed
 * for the shell. With no foreground group set, anyone may read.
 *
 * Lock: console_lock (spin); taken from the UART interrupt too. Signals
 * are sent after it is released (proc.lock is taken before it).
 */
#include "console.h"
#include "uart.h"
#include "spinlock.h"
#include "proc.h"
#include "signal.h"
#include "pgrp.h"
#include "usercopy.h"
#include "config.h"
#include "arch_api.h"
#include <faultline/errno.h>

#define CTRL(c)   ((c) - '@')
#define KEY_BACKSPACE  0x08
#define KEY_DELETE     0x7f

_Static_assert((CONSOLE_BUF_SIZE & (CONSOLE_BUF_SIZE - 1)) == 0,
               "free-running 32-bit indexes need a power-of-two ring");
_Static_assert(CONSOLE_BUF_SIZE >= 2 * FL_CONSOLE_LINE_MAX,
               "the ring holds a line being read and the next one being typed");

static struct spinlock console_lock = SPINLOCK_INIT("console", LOCK_RANK_CONSOLE);
static bool panicking;

/* Ring of typed bytes: [r, w) is committed (readable), [w, e) is the line
 * being edited. held: the ring was full and the UART's receive interrupt
 * is masked. fg_pgid: the foreground process group, 0 if none. */
static struct {
    char buf[CONSOLE_BUF_SIZE];
    uint32_t r, w, e;
    bool held;
    int fg_pgid;
} in;

static void out(char c)
{
    if (uart_ready()) {
        if (c == '\n')
            uart_putc('\r');
        uart_putc(c);
    } else {
        arch_early_putchar(c);
    }
}

static void out_str(const char *s)
{
    while (*s)
        out(*s++);
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
 * and has checked there is room. Returns the signal it asks for, or 0. */
static int receive(int c)
{
    if (c == '\r')
        c = '\n';
    switch (c) {
    case CTRL('C'):
    case CTRL('\\'):
        /* Like a terminal: the line being typed is abandoned (what was
         * already handed over stays), "^C" is shown, and the next output
         * starts on a new line. */
        in.e = in.w;
        out_str(c == CTRL('C') ? "^C\n" : "^\\\n");
        return c == CTRL('C') ? SIGINT : SIGQUIT;
    case CTRL('U'):
        while (in.e != in.w)
            erase_one();
        return 0;
    case KEY_BACKSPACE:
    case KEY_DELETE:
        if (in.e != in.w)
            erase_one();
        return 0;
    case 0:
        return 0;              /* a line break condition reads as NUL: not input */
    default:
        in.buf[in.e++ % CONSOLE_BUF_SIZE] = (char)c;
        if (c != CTRL('D'))
            out((char)c);
        if (c == '\n' || c == CTRL('D') || in.e - in.w == FL_CONSOLE_LINE_MAX)
            commit();
        return 0;
    }
}

void console_receive(void)
{
    uint64_t sigs = 0;
    spin_lock(&console_lock);
    while (ring_has_room()) {
        int c = uart_getc();
        if (c < 0)
            break;
        int sig = receive(c);
        if (sig)
            sigs |= FL_SIGMASK(sig);
    }
    if (!ring_has_room() && !in.held) {
        in.held = true;               /* the rest waits in the UART and the host */
        uart_rx_interrupts(false);
    }
    int fg = in.fg_pgid;
    spin_unlock(&console_lock);
    for (int sig = 1; sigs && fg > 0 && sig < NSIG; sig++)
        if (sigs & FL_SIGMASK(sig))
            pgrp_kill(fg, sig, 0);     /* from the kernel: SI_KERNEL */
}

/* Whether the current process may read now: it is in the foreground
 * group, or there is none. Caller holds the lock. */
static bool may_read(void)
{
    struct proc *p = current_proc();
    return in.fg_pgid == 0 || !p || __atomic_load_n(&p->pgid, __ATOMIC_RELAXED) == in.fg_pgid;
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
    while (in.r == in.w || !may_read()) {
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

int console_foreground(void)
{
    spin_lock(&console_lock);
    int fg = in.fg_pgid;
    spin_unlock(&console_lock);
    return fg;
}

void console_set_foreground(int pgid)
{
    spin_lock(&console_lock);
    in.fg_pgid = pgid;
    wakeup(&in.r);             /* readers that waited for the foreground */
    spin_unlock(&console_lock);
}

void console_wake_readers(void)
{
    spin_lock(&console_lock);
    wakeup(&in.r);
    spin_unlock(&console_lock);
}
