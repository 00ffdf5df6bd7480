/*
 * c1, the second pass of cc: reads the tree c0 wrote and writes RISC-V
 * assembly text for as.
 *
 *   c1 [-v] in.tree out.s
 */
#include "gen.h"

int main(int argc, char *argv[])
{
    cc_pass = "c1";
    bool verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
    if (verbose) {
        argc--;
        argv++;
    }
    if (argc != 3)
        fatal("usage: c1 [-v] in.tree out.s");
    cc_file = argv[1];
    size_t len;
    char *text = read_whole_file(argv[1], &len);
    if (strlen(text) != len)
        error_at(0, "damaged tree file: it holds a NUL byte");
    const char *source;
    struct node *tree = tree_read(text, &source);
    cc_file = source;           /* messages from here on are about the C source */

    struct buf out = { 0 };
    buf_printf(&out, "# %s, compiled by cc\n", source);
    gen_program(&out, tree);
    write_whole_file(argv[2], out.p, out.len);
    if (verbose)
        report_sizes(argv[1]);
    return 0;
}
