/* sleep MS: waits MS milliseconds (useful in scripts and with `&`). */
#include "ulib.h"

int main(int argc, char *argv[])
{
    if (argc != 2) {
        fprintf(STDERR_FILENO, "usage: sleep MILLISECONDS\n");
        return 2;
    }
    long ms = atoi(argv[1]);
    if (ms < 0) {
        fprintf(STDERR_FILENO, "sleep: %s: not a duration\n", argv[1]);
        return 2;
    }
    int rc = sleep((unsigned long)ms);
    if (rc < 0) {
        fprintf(STDERR_FILENO, "sleep: %s\n", strerror(-rc));
        return 1;
    }
    return 0;
}
