/*
 * Host unit test of the shell's pure parts (user/sh/lex.c, parse.c,
 * arith.c, arena.c): the tree each construct parses to, written out as
 * an S-expression; which texts are unfinished (more lines may complete
 * them) and which are errors, with their line and token; $(( )) values
 * and errors; and random texts that must end in a tree or an error,
 * never a crash or a sanitizer report. Built with tests/host/ulib_shim.
 */
#include "check.h"
#include "sh.h"

#define DUMP_MAX    4096
#define FUZZ_TEXTS  20000
#define FUZZ_LEN    80

_Noreturn void sh_out_of_memory(void)
{
    fprintf(stderr, "out of memory\n");
    exit(2);
}

/* ------------------------------------------------------------ tree dump */

static char dump[DUMP_MAX];
static size_t dump_len;

static void put(const char *s)
{
    size_t n = strlen(s);
    if (dump_len + n + 1 > sizeof dump) {
        fprintf(stderr, "dump buffer full\n");
        exit(2);
    }
    memcpy(dump + dump_len, s, n + 1);
    dump_len += n;
}

static void dump_words(const char *const *w, int n)
{
    for (int i = 0; i < n; i++) {
        put(" ");
        put(w[i]);
    }
}

static void dump_redirs(const struct redir *r)
{
    static const char *const KIND[] = { "<", ">", ">>", ">&" };
    char buf[32];
    for (; r; r = r->next) {
        snprintf(buf, sizeof buf, " %d%s", r->fd, KIND[r->kind]);
        put(buf);
        put(r->word);
    }
}

static void dump_node(const struct node *n)
{
    switch (n->kind) {
    case N_SIMPLE:
        put("(cmd");
        dump_words(n->u.simple.words, n->u.simple.nwords);
        if (n->u.simple.nassign) {
            char buf[16];
            snprintf(buf, sizeof buf, " =%d", n->u.simple.nassign);
            put(buf);
        }
        break;
    case N_LIST:
        put("(list");
        for (int i = 0; i < n->u.list.n; i++) {
            put(" ");
            dump_node(n->u.list.items[i]);
        }
        break;
    case N_AND:
    case N_OR:
        put(n->kind == N_AND ? "(and " : "(or ");
        dump_node(n->u.pair.left);
        put(" ");
        dump_node(n->u.pair.right);
        break;
    case N_NOT:
        put("(not ");
        dump_node(n->u.negated);
        break;
    case N_IF:
        put("(if ");
        dump_node(n->u.cond.cond);
        put(" ");
        dump_node(n->u.cond.then);
        if (n->u.cond.otherwise) {
            put(" ");
            dump_node(n->u.cond.otherwise);
        }
        break;
    case N_WHILE:
    case N_UNTIL:
        put(n->kind == N_WHILE ? "(while " : "(until ");
        dump_node(n->u.loop.cond);
        put(" ");
        dump_node(n->u.loop.body);
        break;
    case N_FOR:
        put("(for ");
        put(n->u.each.name);
        if (n->u.each.words) {
            put(" [");
            for (int i = 0; i < n->u.each.nwords; i++) {
                put(i ? " " : "");
                put(n->u.each.words[i]);
            }
            put("]");
        }
        put(" ");
        dump_node(n->u.each.body);
        break;
    }
    dump_redirs(n->redirs);
    if (n->background)
        put(" &");
    put(")");
}

/* The dump of text's tree, or "error LINE: MESSAGE" / "more LINE: ...". */
static const char *parse_text(const char *text)
{
    struct sh_error err = { .line = 0 };
    struct token *tokens;
    struct node *tree = NULL;
    arena_reset();
    dump_len = 0;
    dump[0] = '\0';
    if (lex(text, 1, &tokens, &err) >= 0)
        tree = parse(tokens, &err);
    if (tree) {
        dump_node(tree);
    } else {
        char buf[SH_ERROR_MAX + 32];
        snprintf(buf, sizeof buf, "%s %d: %s", err.incomplete ? "more" : "error", err.line,
                 err.msg);
        put(buf);
    }
    return dump;
}

static void test_trees(void)
{
    static const struct { const char *text, *tree; } CASES[] = {
        { "echo a b", "(list (cmd echo a b))" },
        { "", "(list)" },
        { "# only a comment\n\n", "(list)" },
        { "a; b & c\n", "(list (cmd a) (cmd b &) (cmd c))" },
        { "X=1 Y=\"2 3\"", "(list (cmd X=1 Y=\"2 3\" =2))" },
        { "X=1 cmd Y=2", "(list (cmd X=1 cmd Y=2 =1))" },
        { "echo 'a b' \"c;d\" e\\ f #x", "(list (cmd echo 'a b' \"c;d\" e\\ f))" },
        { "echo a#b", "(list (cmd echo a#b))" },
        { "echo $((1 + 2)) $(ls -l) ${x}", "(list (cmd echo $((1 + 2)) $(ls -l) ${x}))" },
        { "a && b || ! c", "(list (or (and (cmd a) (cmd b)) (not (cmd c))))" },
        { "a &&\n b", "(list (and (cmd a) (cmd b)))" },
        { "cat < in > out 2>> err 2>&1 >>log",
          "(list (cmd cat 0<in 1>out 2>>err 2>&1 1>>log))" },
        { "if a; then b; fi", "(list (if (list (cmd a)) (list (cmd b))))" },
        { "if a\nthen\n b\n c\nelif d; then e; else f; fi",
          "(list (if (list (cmd a)) (list (cmd b) (cmd c)) "
          "(if (list (cmd d)) (list (cmd e)) (list (cmd f)))))" },
        { "while a; do b; done > f &", "(list (while (list (cmd a)) (list (cmd b)) 1>f &))" },
        { "until a; do b; done", "(list (until (list (cmd a)) (list (cmd b))))" },
        { "for i in 1 2 3; do echo $i; done",
          "(list (for i [1 2 3] (list (cmd echo $i))))" },
        { "for i\ndo x; done", "(list (for i (list (cmd x))))" },
        { "for i in; do x; done", "(list (for i [] (list (cmd x))))" },
        { "echo if then fi done", "(list (cmd echo if then fi done))" },
        { "\"if\" x", "(list (cmd \"if\" x))" },
        { "for a in x; do for b in y; do break 2; done; done",
          "(list (for a [x] (list (for b [y] (list (cmd break 2))))))" },
        { "> f", "(list (cmd 1>f))" },
        { "echo \"a $(echo \"b)\") c\" d", "(list (cmd echo \"a $(echo \"b)\") c\" d))" },
        { "echo a \\\n b", "(list (cmd echo a b))" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(CASES); i++)
        CHECK_STR(parse_text(CASES[i].text), CASES[i].tree);
}

static void test_unfinished_and_errors(void)
{
    static const struct { const char *text, *result; } CASES[] = {
        { "if a; then b\n", "more 1: unexpected end of file (expecting fi)" },
        { "if a\n", "more 1: unexpected end of file (expecting then)" },
        { "while a; do\n b\n", "more 2: unexpected end of file (expecting done)" },
        { "for i in a b\n", "more 1: unexpected end of file (expecting do)" },
        { "a &&\n", "more 1: unexpected end of file" },
        { "fi", "error 1: syntax error near `fi'" },
        { "echo a\n\ndone\n", "error 3: syntax error near `done'" },
        { "if a; then; fi", "error 1: syntax error near `;'" },
        { "if a; then b; done", "error 1: syntax error near `done' (expecting fi)" },
        { "for 1x in a; do b; done", "error 1: syntax error near `1x' (expecting a variable name)" },
        { "for i in a b do x; done", "error 1: syntax error near `done' (expecting do)" },
        { "echo a | cat", "error 1: syntax error near `|': pipes are not supported" },
        { "(echo a)", "error 1: syntax error near `(': subshells are not supported" },
        { "echo >", "error 1: syntax error: > needs a file name" },
        { "echo 2>&", "error 1: syntax error: >& needs a file descriptor" },
        { ";", "error 1: syntax error near `;'" },
        { "a ;; b", "error 1: syntax error near `;'" },
        { "echo \"open\n", "error 1: unterminated quote" },
        { "echo 'open", "error 1: unterminated quote" },
        { "echo $((1 + 2)", "error 1: unterminated $(" },
        { "echo ${x", "error 1: unterminated ${" },
        { "\n\nwhile a; do\n b\ndone done", "error 5: syntax error near `done'" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(CASES); i++)
        CHECK_STR(parse_text(CASES[i].text), CASES[i].result);
}

/* ------------------------------------------------------------ arithmetic */

static const char *lookup(const char *name)
{
    if (strcmp(name, "x") == 0)
        return "6";
    if (strcmp(name, "empty") == 0)
        return "";
    if (strcmp(name, "word") == 0)
        return "abc";
    return NULL;
}

static void test_arith(void)
{
    static const struct { const char *expr; long value; } VALUES[] = {
        { "1 + 2 * 3", 7 }, { "(1 + 2) * 3", 9 }, { "7 / 2", 3 }, { "-7 / 2", -3 },
        { "-7 % 3", -1 }, { "7 % -3", 1 }, { "x * x", 36 }, { "x - -x", 12 },
        { "unset + 1", 1 }, { "empty", 0 }, { "2 < 3", 1 }, { "3 <= 2", 0 },
        { "3 >= 3", 1 }, { "x == 6 && x != 5", 1 }, { "0 || 0", 0 }, { "!0 + !5", 1 },
        { "0x10 + 010", 24 }, { " 42 ", 42 }, { "1 - 2 - 3", -4 }, { "100 / 10 / 5", 2 },
        { "9223372036854775807 + 1", (long)(1UL << 63) },
        { "-9223372036854775807 - 1", (long)(1UL << 63) },
        { "(-9223372036854775807 - 1) / -1", (long)(1UL << 63) },
        { "(-9223372036854775807 - 1) % -1", 0 },
    };
    for (size_t i = 0; i < ARRAY_SIZE(VALUES); i++) {
        struct sh_error err;
        long v = -12345;
        int r = arith_eval(VALUES[i].expr, lookup, &v, &err);
        CHECK_EQ(r, 0);
        if (r < 0)
            fprintf(stderr, "    %s: %s\n", VALUES[i].expr, err.msg);
        CHECK_EQ(v, VALUES[i].value);
    }
    static const struct { const char *expr, *msg; } ERRORS[] = {
        { "1 / 0", "arithmetic: division by zero" },
        { "5 % (x - 6)", "arithmetic: division by zero" },
        { "1 +", "arithmetic: missing operand" },
        { "", "arithmetic: missing operand" },
        { "(1 + 2", "arithmetic: missing `)'" },
        { "1 2", "arithmetic: syntax error near `2'" },
        { "word + 1", "arithmetic: word is not a number" },
        { "12abc", "arithmetic: bad number near `12abc'" },
        { "1 $ 2", "arithmetic: syntax error near `$ 2'" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(ERRORS); i++) {
        struct sh_error err;
        long v;
        CHECK_EQ(arith_eval(ERRORS[i].expr, lookup, &v, &err), -1);
        CHECK_STR(err.msg, ERRORS[i].msg);
    }
}

/* ------------------------------------------------------------ fuzz */

static uint64_t rng = 1980;

static uint32_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)rng;
}

/* Random texts from the shell's own pieces and stray bytes: every one
 * must lex and parse to a tree or an error. */
static void test_fuzz(void)
{
    static const char *const PIECES[] = {
        "if ", "then ", "elif ", "else ", "fi", "while ", "until ", "for ", " in ", "do ",
        "done", "; ", "\n", "&", "&&", "||", "|", "!", " ", "x", "$x", "${x}", "$(", "$((",
        ")", "))", "(", "'", "\"", "\\", "#", "<", ">", ">>", "2>", "2>&1", ">&", "=", "a=b",
        "1", "+", "*", "/", "%", "-", "{", "}",
    };
    char text[FUZZ_LEN * 8];
    int trees = 0, errors = 0;
    for (int n = 0; n < FUZZ_TEXTS; n++) {
        size_t len = 0;
        int pieces = (int)(next_random() % FUZZ_LEN);
        for (int i = 0; i < pieces; i++) {
            if (next_random() % 8 == 0) {
                text[len++] = (char)(next_random() % 255 + 1);
            } else {
                const char *p = PIECES[next_random() % ARRAY_SIZE(PIECES)];
                size_t m = strlen(p);
                memcpy(text + len, p, m);
                len += m;
            }
        }
        text[len] = '\0';
        const char *r = parse_text(text);
        if (strncmp(r, "(list", 5) == 0)
            trees++;
        else
            errors++;
        struct sh_error err;
        long v;
        arith_eval(text, lookup, &v, &err);
    }
    CHECK(trees > 0);
    CHECK(errors > 0);
    printf("fuzz: %d trees, %d errors\n", trees, errors);
}

int main(void)
{
    test_trees();
    test_unfinished_and_errors();
    test_arith();
    test_fuzz();
    arena_reset();
    printf("%d passed, %d failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}
