/*
 * cc, the compiler driver: runs the passes in turn, each a program of its
 * own, connected by temporary ram files, as V7's cc ran c0, c1 and as:
 *
 *   c0 file.c /ccPID.tree       tokenize, parse, check
 *   c1 /ccPID.tree /ccPID.s     generate assembly
 *   as -o out /ccPID.s /crt.s   assemble, with the runtime, into an executable
 *
 * Separate processes rather than phases of one: each pass's code and
 * tables exist only while it runs, so the machine sees several
 * medium-size processes one after another, the load a 1980 compile put
 * on the memory manager; and each pass is small enough to read, and to
 * run by hand on its own files.
 *
 *   cc [-v] [-S] [-o out] file.c
 *     -S   stop after c1: write the assembly (to file.s, or out)
 *     -o   the output's name (a.out by default)
 *     -v   name each pass as it runs; the passes print their sizes
 */
#include "cc.h"

#define RUNTIME "/crt.s"
#define EXIT_EXEC_FAILED 127

static char tree_file[32], asm_file[32];

static void remove_temporaries(void)
{
    if (tree_file[0])
        unlink(tree_file);
    if (asm_file[0])
        unlink(asm_file);
}

/* A pass's argument list. */
struct command {
    char *argv[8];
    int argc;
};

/* Appends s; with_v: then "-v", which every pass takes first. */
static void add(struct command *c, const char *s, bool with_v)
{
    c->argv[c->argc++] = (char *)s;
    if (with_v)
        c->argv[c->argc++] = "-v";
    c->argv[c->argc] = NULL;
}

/* Runs a pass and waits; a pass that fails ends the compile. */
static void run(const struct command *c, bool verbose)
{
    char *const *argv = c->argv;
    if (verbose) {
        char line[256] = "cc:";
        for (int i = 0; argv[i]; i++) {
            strlcpy(line + strlen(line), " ", sizeof line - strlen(line));
            strlcpy(line + strlen(line), argv[i], sizeof line - strlen(line));
        }
        fprintf(2, "%s\n", line);
    }
    int pid = fork();
    if (pid < 0) {
        remove_temporaries();
        fatal("cannot fork: %s", strerror(pid));
    }
    if (pid == 0) {
        int rc = exec_command(argv[0], argv);
        fprintf(2, "cc: cannot run %s: %s\n", argv[0], strerror(rc));
        exit(EXIT_EXEC_FAILED);
    }
    int status;
    int rc = wait_pid(pid, &status, 0);
    if (rc < 0) {
        remove_temporaries();
        fatal("waiting for %s: %s", argv[0], strerror(rc));
    }
    if (!FL_WIFEXITED(status)) {
        remove_temporaries();
        fatal("%s died of signal %d", argv[0], FL_WTERMSIG(status));
    }
    if (FL_WEXITSTATUS(status) != 0) {
        remove_temporaries();
        exit(1);
    }
}

static _Noreturn void usage(void)
{
    fatal("usage: cc [-v] [-S] [-o out] file.c");
}

int main(int argc, char *argv[])
{
    cc_pass = "cc";
    bool verbose = false, asm_only = false;
    const char *out = NULL, *src = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-v") == 0)
            verbose = true;
        else if (strcmp(argv[i], "-S") == 0)
            asm_only = true;
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            out = argv[++i];
        else if (argv[i][0] == '-' || src)
            usage();
        else
            src = argv[i];
    }
    if (!src)
        usage();
    size_t n = strlen(src);
    if (n < 3 || strcmp(src + n - 2, ".c") != 0)
        fatal("'%s' is not a C source file (it should end in .c)", src);

    char asm_out[FL_PATH_MAX];
    if (asm_only && !out) {
        /* file.c -> file.s, in the root: ram files have no directories. */
        const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
        snprintf(asm_out, sizeof asm_out, "%.*s.s", (int)strlen(base) - 2, base);
        out = asm_out;
    }
    int pid = getpid();
    snprintf(tree_file, sizeof tree_file, "/cc%d.tree", pid);
    if (!asm_only)
        snprintf(asm_file, sizeof asm_file, "/cc%d.s", pid);
    struct command c0 = { 0 }, c1 = { 0 }, as = { 0 };
    add(&c0, "c0", verbose);
    add(&c0, src, false);
    add(&c0, tree_file, false);
    add(&c1, "c1", verbose);
    add(&c1, tree_file, false);
    add(&c1, asm_only ? out : asm_file, false);
    add(&as, "as", verbose);
    add(&as, "-o", false);
    add(&as, out ? out : "a.out", false);
    add(&as, asm_file, false);
    add(&as, RUNTIME, false);
    run(&c0, verbose);
    run(&c1, verbose);
    if (!asm_only)
        run(&as, verbose);
    remove_temporaries();
    return 0;
}
