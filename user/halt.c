/* halt [CODE]: powers the machine off; QEMU exits with CODE (default 0).
 * CODE is 0..255: a process exit status has 8 bits, and the kernel keeps
 * only those, so `halt 300` would exit 44. It is refused instead. */
#include "ulib.h"

#define HALT_CODE_MAX 255

int main(int argc, char *argv[])
{
    int code = 0;
    if (argc > 2)
        die("usage: halt [exit-code 0..255]");
    if (argc > 1) {
        char *end;
        long value = strtol(argv[1], &end, 0);
        if (*end || end == argv[1] || value < 0 || value > HALT_CODE_MAX)
            die("usage: halt [exit-code 0..255]");
        code = (int)value;
    }
    int err = halt(code);
    print_err("halt", err);
    return 1;
}
