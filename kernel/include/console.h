/* The console: UART output for the kernel and a line discipline for input. */
#ifndef FAULTLINE_CONSOLE_H
#define FAULTLINE_CONSOLE_H

#include "types.h"

/* Writes whole under the console lock (so lines from different harts do
 * not interleave); usable from any context, user text or kernel messages. */
void console_write(const char *s, size_t n);
/* read() on the console into user memory: blocks until a line, a piece of
 * an over-long line, or EOF is there and the caller's group may read;
 * returns bytes (at most one line), 0 at EOF, -EINTR, -EFAULT. */
long console_read_user(uint64_t ubuf, uint64_t n);
/* The UART has input (its interrupt): takes what the ring has room for. */
void console_receive(void);
/* Before a panic: writes go straight to the UART, ignoring the lock. */
void console_panic_mode(void);

/* The foreground process group (0: none). Setting it wakes readers; the
 * checks are the caller's (pgrp.c). */
int  console_foreground(void);
void console_set_foreground(int pgid);
/* A process changed group: readers waiting for the foreground look again. */
void console_wake_readers(void);

#endif
