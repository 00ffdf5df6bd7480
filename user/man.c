/*
 * man [-p] [-w] [SECTION] NAME...: finds manual pages and formats them.
 * man -k WORD: the pages whose NAME line holds WORD.
 *
 * A page is the file /man/manS/NAME.S (S: the section). Without SECTION
 * the sections are searched in the order of `section_order`. For each
 * page man forks and execs `/nroff -man PAGE`, as UNIX man ran nroff, so
 * the formatted page goes straight to man's stdout; man waits for it
 * before the next. -p passes -p to nroff (no overstrikes); -w prints the
 * page's path instead of formatting it.
 *
 * Exit status: 0 if every page was found and formatted; 1 if one was
 * missing (after "No manual entry for NAME") or nroff failed or could not
 * run; 2 for bad arguments. -k exits 1 when nothing matched.
 */
#include "ulib.h"

#define NROFF_PATH     "/nroff"
#define MAN_PREFIX     "man/man"          /* page paths: man/manS/NAME.S */
#define SECTION_MAX    8                  /* characters in a section name */
#define EXEC_FAILED    127                /* as in sh */
#define EXIT_FAILED    1
#define EXIT_USAGE     2
#define HEAD_BYTES     2048               /* -k reads this much of each page */
#define DESCRIPTION_MAX 200

/* Commands, then maintenance (BSD's order), then the rest. */
static const char *const section_order[] = { "1", "8", "2", "3", "4", "5", "6", "7", "9" };

static bool opt_plain, opt_where;

static _Noreturn void usage(void)
{
    fprintf(STDERR_FILENO, "usage: man [-p] [-w] [section] name...\n"
                           "       man -k word\n");
    exit(EXIT_USAGE);
}

static bool is_section(const char *s)
{
    return isdigit(s[0]) && strlen(s) <= SECTION_MAX && !strchr(s, '/');
}

/* Fills path with the page of name in section; true if the file exists. */
static bool page_path(const char *section, const char *name, char *path, size_t size)
{
    if ((size_t)snprintf(path, size, "/%s%s/%s.%s", MAN_PREFIX, section, name, section) >= size)
        return false;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return false;
    close(fd);
    return true;
}

/* Runs nroff -man on the page; returns man's status for it. */
static int format(const char *path)
{
    if (opt_where) {
        printf("%s\n", path);
        return 0;
    }
    int pid = fork();
    if (pid < 0) {
        print_err("man: fork", pid);
        return EXIT_FAILED;
    }
    if (pid == 0) {
        char *argv[] = { "nroff", "-man", (char *)path, NULL, NULL };
        if (opt_plain) {
            argv[2] = "-p";
            argv[3] = (char *)path;
        }
        int err = exec(NROFF_PATH, argv);
        fprintf(STDERR_FILENO, "man: cannot run %s: %s\n", NROFF_PATH, strerror(err));
        exit(EXEC_FAILED);
    }
    int status;
    int err = wait_pid(pid, &status, 0);
    if (err < 0) {
        print_err("man: wait", err);
        return EXIT_FAILED;
    }
    if (!FL_WIFEXITED(status)) {
        fprintf(STDERR_FILENO, "man: nroff killed by signal %d\n", FL_WTERMSIG(status));
        return EXIT_FAILED;
    }
    return FL_WEXITSTATUS(status) ? EXIT_FAILED : 0;
}

static int man_page(const char *section, const char *name)
{
    char path[FL_PATH_MAX];
    bool found = false;
    if (name[0] && !strchr(name, '/')) {
        if (section) {
            found = page_path(section, name, path, sizeof path);
        } else {
            for (size_t i = 0; i < ARRAY_SIZE(section_order) && !found; i++)
                found = page_path(section_order[i], name, path, sizeof path);
        }
    }
    if (!found) {
        if (section)
            fprintf(STDERR_FILENO, "No entry for %s in section %s of the manual\n", name, section);
        else
            fprintf(STDERR_FILENO, "No manual entry for %s\n", name);
        return EXIT_FAILED;
    }
    return format(path);
}

/* ---- man -k ---- */

static bool contains_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (; *text; text++) {
        size_t i = 0;
        while (i < n && text[i] && toupper(text[i]) == toupper(word[i]))
            i++;
        if (i == n)
            return true;
    }
    return false;
}

/* The NAME line's text ("ls \- list files"), escapes removed, into out. */
static bool name_line(const char *path, char *out, size_t size)
{
    static char head[HEAD_BYTES + 1];
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return false;
    long n = read(fd, head, HEAD_BYTES);
    close(fd);
    if (n <= 0)
        return false;
    head[n] = '\0';

    const char *p = head;
    bool after_name = false;
    while (*p) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (after_name && p[0] != '.' && len > 0) {
            size_t o = 0;
            for (size_t i = 0; i < len && o + 1 < size; i++) {
                if (p[i] == '\\' && i + 1 < len) {
                    i++;
                    if (p[i] == 'f' && i + 1 < len)
                        i++;                     /* \fB: a font, nothing to show */
                    else if (p[i] == '-' || p[i] == 'e')
                        out[o++] = p[i] == '-' ? '-' : '\\';
                    continue;
                }
                out[o++] = p[i];
            }
            out[o] = '\0';
            return true;
        }
        after_name = after_name || strncmp(p, ".SH NAME", 8) == 0;
        p = end ? end + 1 : p + len;
    }
    return false;
}

static int keyword(const char *word)
{
    struct fl_dirent d;
    bool any = false;
    for (unsigned long i = 0; readdir(i, &d) > 0; i++) {
        d.name[sizeof d.name - 1] = '\0';
        const char *name = d.name;
        while (*name == '/')
            name++;
        if (strncmp(name, MAN_PREFIX, strlen(MAN_PREFIX)) != 0)
            continue;
        const char *section = name + strlen(MAN_PREFIX);
        const char *file = strchr(section, '/');
        if (!file)
            continue;
        file++;
        const char *dot = strrchr(file, '.');
        if (!dot || dot == file)
            continue;

        char path[FL_PATH_MAX], text[DESCRIPTION_MAX];
        snprintf(path, sizeof path, "/%s", name);
        if (!name_line(path, text, sizeof text) || !contains_word(text, word))
            continue;
        /* "ls - list files" becomes "ls(1) - list files" */
        const char *dash = text;
        while (*dash && strncmp(dash, " - ", 3) != 0)
            dash++;
        printf("%.*s(%s)%s%s\n", (int)(dot - file), file, dot + 1,
               *dash ? "" : " - ", *dash ? dash : text);
        any = true;
    }
    if (!any)
        printf("%s: nothing appropriate\n", word);
    return any ? 0 : EXIT_FAILED;
}

int main(int argc, char *argv[])
{
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "-k") == 0) {
            if (i + 2 != argc)
                usage();
            return keyword(argv[i + 1]);
        } else if (strcmp(argv[i], "-p") == 0) {
            opt_plain = true;
        } else if (strcmp(argv[i], "-w") == 0) {
            opt_where = true;
        } else {
            usage();
        }
    }
    const char *section = NULL;
    if (i < argc && is_section(argv[i]) && i + 1 < argc)
        section = argv[i++];
    if (i == argc)
        usage();

    int status = 0;
    for (; i < argc; i++) {
        int s = man_page(section, argv[i]);
        if (s && !status)
            status = s;
    }
    return status;
}
