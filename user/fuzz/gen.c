/*
 * The call generator and the table of system calls fuzz makes.
 *
 * Left out, on purpose:
 *   halt          powers the machine off: the run would end, not test.
 * Constrained (run.c says how and why): exec never names a program that
 * can run, sleep is short, reads of the console ask for 0 bytes, writes
 * to it come from memory the kernel may not read, SIGKILL never reaches
 * the fuzz parent, mmap/munmap stay out of the child's own image, and
 * sigsuspend, sigtimedwait and sigaltstack neither wait long nor put a
 * signal stack on the child's own memory (sigwait.c).
 */
#include "fuzz.h"
#include "mix64.h"

/* FNV-1a, 64-bit, for the checksum of the generated calls */
#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME  0x100000001b3ULL
#define BYTE_BITS  8
#define BATCH_SALT 0x6675a2a7e3f1c5d9ULL   /* keeps batch 0 of seed s apart from seed s itself */

uint64_t gen_word(struct fuzz_gen *g)
{
    g->state += MIX64_GAMMA;
    return mix64(g->state);
}

static void hash_word(struct fuzz_gen *g, uint64_t w)
{
    for (int i = 0; i < (int)sizeof w; i++) {
        g->hash ^= (w >> (i * BYTE_BITS)) & 0xff;
        g->hash *= FNV_PRIME;
    }
}

void gen_start(struct fuzz_gen *g, uint64_t seed, uint64_t batch)
{
    g->state = mix64(seed ^ mix64(batch ^ BATCH_SALT));
    g->hash = FNV_OFFSET;
}

/* Weights: calls that may end the child are rare, so that a child lives
 * for a few hundred calls and forks do not dominate the run. */
#define N A_NONE
#define R F_RETURNS
#define E F_MAY_END
const struct fuzz_spec fuzz_specs[] = {
    { "getpid",        SYS_getpid,         8, R, { N } },
    { "exit",          SYS_exit,           1, E, { A_INT } },
    { "fork",          SYS_fork,          16, R, { N } },
    { "exec",          SYS_exec,          24, E, { A_PATH, A_ARGV } },
    { "wait",          SYS_wait,          16, R, { A_PTR_OUT } },
    { "kill",          SYS_kill,         12, E, { A_PID, A_SIG } },
    { "sbrk",          SYS_sbrk,          24, R, { A_INT } },
    { "sleep",         SYS_sleep,          8, R, { A_MS } },
    { "uptime",        SYS_uptime,         4, R, { N } },
    { "read",          SYS_read,         64, R, { A_FD, A_PTR_OUT, A_LEN } },
    { "write",         SYS_write,        64, R, { A_FD, A_PTR_IN, A_LEN } },
    { "open",          SYS_open,         56, R, { A_PATH, A_INT } },
    { "close",         SYS_close,        40, R, { A_FD } },
    { "dup",           SYS_dup,           32, R, { A_FD } },
    { "readdir",       SYS_readdir,       24, R, { A_INT, A_PTR_OUT } },
    { "fstat",         SYS_fstat,         32, R, { A_FD, A_PTR_OUT } },
    { "thread_create", SYS_thread_create,  4, E, { A_CODE, A_STACK, A_INT, A_INT } },
    { "thread_exit",   SYS_thread_exit,    1, E, { A_INT } },
    { "thread_join",   SYS_thread_join,   16, R, { A_TID, A_PTR_OUT } },
    { "gettid",        SYS_gettid,         4, R, { N } },
    { "set_affinity",  SYS_set_affinity,  16, R, { A_TID, A_INT } },
    { "procinfo",      SYS_procinfo,      24, R, { A_PTR_OUT, A_LEN } },
    { "times",         SYS_times,         12, R, { A_PTR_OUT } },
    { "sysinfo",       SYS_sysinfo,       12, R, { A_PTR_OUT } },
    { "unlink",        SYS_unlink,        24, R, { A_PATH } },
    { "yield",         SYS_yield,          8, R, { N } },
    { "wait_pid",      SYS_wait_pid,      24, R, { A_PID, A_PTR_OUT, A_INT } },
    { "gethart",       SYS_gethart,        4, R, { N } },
    /* A handler at a random address kills the child at its next signal. */
    { "sigaction",     SYS_sigaction,      8, E, { A_SIG, A_PTR_IN, A_PTR_OUT } },
    { "sigprocmask",   SYS_sigprocmask,   24, R, { A_INT, A_PTR_IN, A_PTR_OUT } },
    /* No signal frame at sp: the kernel must refuse it and kill the child. */
    { "sigreturn",     SYS_sigreturn,      1, E, { N } },
    { "tkill",         SYS_tkill,          4, E, { A_TID, A_SIG } },
    { "sigpending",    SYS_sigpending,    12, R, { A_PTR_OUT } },
    { "mmap",          SYS_mmap,         40, R, { A_ADDR, A_LEN, A_INT, A_INT } },
    { "munmap",        SYS_munmap,        32, R, { A_ADDR, A_LEN } },
    { "meter_read",    SYS_meter_read,    12, R, { A_INT, A_PTR_OUT, A_LEN } },
    { "meter_reset",   SYS_meter_reset,    4, R, { N } },
    { "nop",           SYS_nop,            4, R, { N } },
    { "vmstat",        SYS_vmstat,        12, R, { A_PTR_OUT } },
    { "vmctl",         SYS_vmctl,         24, R, { A_INT, A_ADDR, A_LEN } },
    { "setpgid",       SYS_setpgid,       24, R, { A_PID, A_PID } },
    { "getpgid",       SYS_getpgid,       12, R, { A_PID } },
    { "setsid",        SYS_setsid,         8, R, { N } },
    { "getsid",        SYS_getsid,        12, R, { A_PID } },
    { "tcsetpgrp",     SYS_tcsetpgrp,     16, R, { A_FD, A_PID } },
    { "tcgetpgrp",     SYS_tcgetpgrp,     12, R, { A_FD } },
    /* Constrained so that each returns soon (sigwait.c); sigsuspend may
     * let in a pending signal whose default ends the child. */
    { "sigsuspend",    SYS_sigsuspend,     8, E, { A_PTR_IN } },
    { "sigaltstack",   SYS_sigaltstack,   12, R, { A_PTR_IN, A_PTR_OUT } },
    { "sigtimedwait",  SYS_sigtimedwait,  12, R, { A_PTR_IN, A_PTR_OUT, A_PTR_IN } },
    { "ulf_attach",    SYS_ulf_attach,    12, R, { A_PID, A_ADDR, A_LEN, A_INT, A_INT } },
    { "ulf_grant",     SYS_ulf_grant,      8, R, { A_LEN } },
    { "ulf_recv",      SYS_ulf_recv,       8, R, { A_PTR_OUT } },
    { "ulf_load",      SYS_ulf_load,      12, R, { A_PID, A_ADDR, A_ADDR, A_INT } },
    { "ulf_unload",    SYS_ulf_unload,    12, R, { A_PID, A_ADDR, A_LEN } },
    { "ulf_resume",    SYS_ulf_resume,    12, R, { A_TID, A_INT, A_INT } },
    { "ulf_regs",      SYS_ulf_regs,      12, R, { A_TID, A_PTR_OUT, A_INT } },
    { "ulf_reply_recv", SYS_ulf_reply_recv, 8, R, { A_TID, A_INT, A_INT, A_PTR_OUT } },
    { "bad_number",    FUZZ_NR_BAD,       12, R, { A_INT, A_INT, A_INT, A_INT, A_INT, A_INT } },
};
#undef N
#undef R
#undef E
const int fuzz_nspecs = (int)ARRAY_SIZE(fuzz_specs);
_Static_assert(ARRAY_SIZE(fuzz_specs) <= FUZZ_MAX_SPECS, "FUZZ_MAX_SPECS is too small");

static int total_weight(void)
{
    static int total;
    if (!total)
        for (int i = 0; i < fuzz_nspecs; i++)
            total += fuzz_specs[i].weight;
    return total;
}

void gen_next(struct fuzz_gen *g, struct fuzz_call *c)
{
    int pick = (int)(gen_word(g) % (uint64_t)total_weight());
    int s = 0;
    while (pick >= fuzz_specs[s].weight)
        pick -= fuzz_specs[s++].weight;
    c->spec = s;
    hash_word(g, (uint64_t)s);
    for (int i = 0; i < FUZZ_MAX_ARGS; i++) {
        int cls = fuzz_specs[s].args[i];
        uint64_t w = gen_word(g);
        c->kind[i] = cls == A_NONE ? 0 : (uint8_t)(w % fuzz_kinds[cls]);
        c->raw[i] = gen_word(g);
        hash_word(g, c->kind[i]);
        hash_word(g, c->raw[i]);
    }
}
