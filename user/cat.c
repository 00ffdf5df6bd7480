/* cat [FILE...]: copies the files, or stdin if none, to stdout. */
#include "ulib.h"

#define CHUNK 512

/* Returns 0, or -errno of the failing read or write. */
static long copy(int fd)
{
    char buf[CHUNK];
    for (;;) {
        long n = read(fd, buf, sizeof buf);
        if (n <= 0)
            return n;
        for (long done = 0; done < n;) {
            long w = write(STDOUT_FILENO, buf + done, (size_t)(n - done));
            if (w < 0)
                return w;
            done += w;
        }
    }
}

int main(int argc, char *argv[])
{
    if (argc < 2) {
        long err = copy(STDIN_FILENO);
        if (err < 0)
            print_err("cat", err);
        return err < 0;
    }

    int status = 0;
    for (int i = 1; i < argc; i++) {
        int fd = open(argv[i], O_RDONLY);
        if (fd < 0) {
            fprintf(STDERR_FILENO, "cat: %s: %s\n", argv[i], strerror(fd));
            status = 1;
            continue;
        }
        long err = copy(fd);
        if (err < 0) {
            fprintf(STDERR_FILENO, "cat: %s: %s\n", argv[i], strerror((int)err));
            status = 1;
        }
        close(fd);
    }
    return status;
}
