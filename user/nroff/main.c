/*
 * nroff [-man] [-p] [FILE...]: formats text for a terminal.
 *
 *   -man   the man macros (.TH .SH .TP ...: man.c)
 *   -p     plain: no overstrikes for bold and italic
 *
 * The files (or stdin, also for "-") are formatted as one document, to
 * stdout. Problems in the input are reported on stderr with the file and
 * line, and formatting goes on. Exit status: 0; 1 if a file could not be
 * read or the output could not be written; 2 for bad arguments.
 *
 * This file is the program's only contact with the system: it reads the
 * input and gives the formatter (fmt.c and the rest) its two hooks.
 */
#include "nroff.h"

#define READ_CHUNK   4096
#define INPUT_MAX    (4L * 1024 * 1024)   /* larger input is refused, not truncated */
#define EXIT_TROUBLE 1
#define EXIT_USAGE   2

static bool write_failed;

void nroff_write(const char *bytes, size_t n)
{
    while (n > 0 && !write_failed) {
        long w = write(STDOUT_FILENO, bytes, n);
        if (w <= 0) {
            print_err("nroff: write", w < 0 ? w : -EIO);
            write_failed = true;
            return;
        }
        bytes += w;
        n -= (size_t)w;
    }
}

void nroff_diag(const char *message)
{
    write(STDERR_FILENO, message, strlen(message));
}

/* Reads all of fd into a NUL-terminated heap buffer; returns the length
 * or -errno. */
static long slurp(int fd, char **out)
{
    size_t cap = READ_CHUNK, len = 0;
    char *buf = malloc(cap + 1);
    if (!buf)
        return -ENOMEM;
    for (;;) {
        if (len == cap) {
            if (cap >= (size_t)INPUT_MAX) {
                free(buf);
                return -EFBIG;
            }
            char *bigger = realloc(buf, 2 * cap + 1);
            if (!bigger) {
                free(buf);
                return -ENOMEM;
            }
            buf = bigger;
            cap *= 2;
        }
        long n = read(fd, buf + len, cap - len);
        if (n < 0) {
            free(buf);
            return n;
        }
        if (n == 0)
            break;
        len += (size_t)n;
    }
    buf[len] = '\0';
    *out = buf;
    return (long)len;
}

/* Formats one input: each line, newline removed, to fmt_line. */
static int format(int fd, const char *name)
{
    char *text;
    long len = slurp(fd, &text);
    if (len < 0) {
        fprintf(STDERR_FILENO, "nroff: %s: %s\n", name, strerror((int)len));
        return EXIT_TROUBLE;
    }
    fmt_file(name);
    char *line = text, *end = text + len;
    for (int number = 1; line < end; number++) {
        char *nl = memchr(line, '\n', (size_t)(end - line));
        char *stop = nl ? nl : end;
        *stop = '\0';
        if (strlen(line) < (size_t)(stop - line))
            fprintf(STDERR_FILENO, "nroff: %s:%d: NUL byte: rest of the line ignored\n",
                    name, number);
        fmt_line(line);
        line = stop + 1;
    }
    free(text);
    return 0;
}

static _Noreturn void usage(void)
{
    fprintf(STDERR_FILENO, "usage: nroff [-man] [-p] [file...]\n");
    exit(EXIT_USAGE);
}

int main(int argc, char *argv[])
{
    struct fmt_options opts = { .man = false, .overstrike = true };
    int i = 1;
    for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        if (strcmp(argv[i], "-man") == 0) {
            opts.man = true;
        } else if (strcmp(argv[i], "-p") == 0) {
            opts.overstrike = false;
        } else if (strncmp(argv[i], "-m", 2) == 0) {
            fprintf(STDERR_FILENO, "nroff: %s: no such macro package (there is -man)\n",
                    argv[i]);
            return EXIT_USAGE;
        } else {
            usage();
        }
    }

    fmt_begin(&opts);
    int status = 0;
    if (i == argc)
        status |= format(STDIN_FILENO, "-");
    for (; i < argc; i++) {
        if (strcmp(argv[i], "-") == 0) {
            status |= format(STDIN_FILENO, "-");
            continue;
        }
        int fd = open(argv[i], O_RDONLY);
        if (fd < 0) {
            fprintf(STDERR_FILENO, "nroff: %s: %s\n", argv[i], strerror(fd));
            status = EXIT_TROUBLE;
            continue;
        }
        status |= format(fd, argv[i]);
        close(fd);
    }
    fmt_end();
    return write_failed ? EXIT_TROUBLE : status;
}
