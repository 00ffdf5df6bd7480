# cc, the C compiler (docs/cc.md): a driver and three passes, which share
# util.c (and c0 and c1 share tree.c, the file between them).
USER_MULTI += cc c0 c1 as
cc_SRCS := user/cc/cc.c user/cc/util.c
c0_SRCS := user/cc/c0.c user/cc/lex.c user/cc/parse.c user/cc/parse_expr.c user/cc/type.c \
           user/cc/check.c user/cc/check_expr.c user/cc/tree.c user/cc/util.c
c1_SRCS := user/cc/c1.c user/cc/gen.c user/cc/gen_stmt.c user/cc/tree.c user/cc/util.c
as_SRCS := user/cc/as.c user/cc/asm_parse.c user/cc/asm_enc.c user/cc/elf.c user/cc/util.c
# The runtime every compiled program is assembled with (/crt.s) and the
# sample sources (/hello.c, /wordfreq.c) are installed from user/files/.
