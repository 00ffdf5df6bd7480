/* Line input. */
#include "ulib.h"

/* Reads a byte at a time: the console hands over a line at a time anyway,
 * and with a file on stdin this never consumes bytes past the newline that
 * a program started after us should see. */
long read_line(int fd, char *buf, size_t size)
{
    size_t len = 0;    /* bytes stored */
    size_t full = 0;   /* bytes in the line */
    bool got_any = false;
    for (;;) {
        char c;
        long n = read(fd, &c, 1);
        if (n < 0)
            return n;
        if (n == 0)
            break;
        got_any = true;
        if (c == '\n')
            break;
        full++;
        if (len + 1 < size)
            buf[len++] = c;
    }
    if (size)
        buf[len] = '\0';
    return got_any ? (long)full : -1;
}
