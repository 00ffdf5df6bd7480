/*
 * A bounded message writer (kernel/lib/ktext.c): appends to a caller's
 * buffer, always NUL-terminated, silently truncating. Pure code, so the
 * boot-parameter messages it builds are unit tested on the host.
 */
#ifndef FAULTLINE_KTEXT_H
#define FAULTLINE_KTEXT_H

#include "types.h"

struct text {
    char  *buf;
    size_t cap;
    size_t len;
};

struct text text_start(char *buf, size_t cap);
void text_putn(struct text *t, const char *s, size_t n);
void text_put(struct text *t, const char *s);
void text_put_u64(struct text *t, uint64_t v);

#endif
