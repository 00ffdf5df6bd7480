/* The console: UART output for the kernel and a line discipline for input. */
#ifndef FAULTLINE_CONSOLE_H
#define FAULTLINE_CONSOLE_H

#include "types.h"

/* Writes whole under the console lock (so lines from different harts do
 * not interleave); usable from any context, user text or kernel messages. */
void console_write(const char *s, size_t n);
/* read() on the console into user memory: blocks until a line, a piece of
 * an over-long line, or EOF is there;
 * returns bytes (at most one line), 0 at EOF, -EINTR, -EFAULT. */
long console_read_user(uint64_t ubuf, uint64_t n);
/* The UART has input (its interrupt): takes what the ring has room for. */
void console_receive(void);
/* Before a panic: writes go straight to the UART, ignoring the lock. */
void console_panic_mode(void);

#endif
