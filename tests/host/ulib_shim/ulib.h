/*
 * A stand-in for user/lib/ulib.h on the host, so that the pure parts of
 * user programs (those that make no system call, such as the formatter
 * behind user/nroff/) compile and run in host unit tests. It gives the
 * C library's versions of what ulib also has with the same meaning.
 * Programs must not use ulib calls whose signatures differ from the C
 * library's (fprintf takes an fd in ulib) in the files tested this way.
 */
#ifndef ULIB_H
#define ULIB_H

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STDIN_FILENO   0
#define STDOUT_FILENO  1
#define STDERR_FILENO  2

#define ARRAY_SIZE(a)  (sizeof(a) / sizeof((a)[0]))

#endif
