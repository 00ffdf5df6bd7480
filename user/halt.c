/* halt [CODE]: powers the machine off; QEMU exits with CODE (default 0). */
#include "ulib.h"

int main(int argc, char *argv[])
{
    int code = 0;
    if (argc > 1) {
        char *end;
        code = (int)strtol(argv[1], &end, 0);
        if (*end || end == argv[1])
            die("usage: halt [exit-code]");
    }
    int err = halt(code);
    print_err("halt", err);
    return 1;
}
