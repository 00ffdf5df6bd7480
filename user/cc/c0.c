/*
 * c0, the first pass of cc: reads a C source file, tokenizes it, parses
 * it into a tree, checks the tree (names, types, lvalues, argument
 * counts) and writes the checked, lowered tree to a file for c1.
 *
 *   c0 [-v] file.c out.tree
 */
#include "c0.h"

int main(int argc, char *argv[])
{
    cc_pass = "c0";
    bool verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
    if (verbose) {
        argc--;
        argv++;
    }
    if (argc != 3)
        fatal("usage: c0 [-v] file.c out.tree");
    cc_file = argv[1];
    size_t len;
    char *src = read_whole_file(argv[1], &len);
    if (strlen(src) != len)
        error_at(0, "the file holds a NUL byte: not C source");

    struct token *tokens = lex(src);
    struct node *parsed = parse_program(tokens);
    struct node *lowered = check_program(parsed);

    struct buf out = { 0 };
    tree_write(&out, argv[1], lowered);
    write_whole_file(argv[2], out.p ? out.p : "", out.len);
    if (verbose)
        report_sizes(argv[1]);
    return 0;
}
