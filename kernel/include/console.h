/* The console: UART output for the kernel and a line discipline for input. */
#ifndef FAULTLINE_CONSOLE_H
#define FAULTLINE_CONSOLE_H

#include "types.h"

/* Writes whole under the console lock (so lines from different harts do
 * not interleave); usable from any context, user text or kernel messages. */
void console_write(const char *s, size_t n);
/* Blocks until a line (or EOF) is available; returns bytes, 0 at EOF, -EINTR if killed. */
long console_read(char *dst, size_t n);
/* Called from the UART interrupt for each received byte. */
void console_input(int c);
/* Before a panic: writes go straight to the UART, ignoring the lock. */
void console_panic_mode(void);

#endif
