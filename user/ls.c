/* ls [NAME...]: lists the files (all, or the ones named) with type and size. */
#include "ulib.h"

static const char *type_name(uint32_t type)
{
    switch (type) {
    case FL_T_FILE: return "file";
    case FL_T_DEV:  return "dev";
    case FL_T_DIR:  return "dir";
    default:        return "?";
    }
}

/* The namespace is flat: "/sh" and "sh" name the same file. */
static const char *bare(const char *name)
{
    while (*name == '/')
        name++;
    return name;
}

static bool wanted(const char *name, int argc, char *argv[], bool found[])
{
    if (argc < 2)
        return true;
    for (int i = 1; i < argc; i++) {
        if (strcmp(bare(name), bare(argv[i])) == 0) {
            found[i] = true;
            return true;
        }
    }
    return false;
}

#define MAX_NAMED 32

int main(int argc, char *argv[])
{
    bool found[MAX_NAMED + 1] = { false };
    if (argc > MAX_NAMED + 1)
        die("ls: at most %d names", MAX_NAMED);

    struct fl_dirent d;
    int r;
    for (unsigned long i = 0; (r = readdir(i, &d)) > 0; i++) {
        d.name[sizeof d.name - 1] = '\0';
        if (wanted(d.name, argc, argv, found))
            printf("%-20s %-4s %8lu%s\n", d.name, type_name(d.type), (unsigned long)d.size,
                   (d.flags & FL_STAT_READONLY) ? " ro" : "");
    }
    if (r < 0) {
        print_err("ls: readdir", r);
        return 1;
    }

    int status = 0;
    for (int i = 1; i < argc; i++) {
        if (!found[i]) {
            fprintf(STDERR_FILENO, "ls: %s: %s\n", argv[i], strerror(ENOENT));
            status = 1;
        }
    }
    return status;
}
