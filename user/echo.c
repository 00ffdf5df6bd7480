/* echo ARGS...: prints its arguments separated by spaces. */
#include "ulib.h"

#define LINE_BUFFER 512

int main(int argc, char *argv[])
{
    /* One printf per argument would be one write() each; build the line
     * first so it reaches the console in one piece. */
    char line[LINE_BUFFER];
    size_t len = 0;
    for (int i = 1; i < argc; i++) {
        int n = snprintf(line + len, sizeof line - len, "%s%s", i > 1 ? " " : "", argv[i]);
        if (n < 0 || (size_t)n >= sizeof line - len) {
            /* Too long for the buffer: flush what we have and go on. */
            if (write(STDOUT_FILENO, line, len) < 0)
                return 1;
            len = 0;
            if (printf("%s%s", i > 1 ? " " : "", argv[i]) < 0)
                return 1;
            continue;
        }
        len += (size_t)n;
    }
    line[len++] = '\n';
    return write(STDOUT_FILENO, line, len) == (long)len ? 0 : 1;
}
