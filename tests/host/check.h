/*
 * Minimal assertion helpers for the host unit tests. A failed check prints
 * file:line and the expression and the test goes on, so one run shows every
 * failure; check_summary() prints the totals and gives the exit status.
 */
#ifndef FAULTLINE_TESTS_CHECK_H
#define FAULTLINE_TESTS_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_passed;
static int check_failed;

static inline void check_record(int ok, const char *file, int line, const char *expr)
{
    if (ok) {
        check_passed++;
        return;
    }
    check_failed++;
    fprintf(stderr, "%s:%d: check failed: %s\n", file, line, expr);
}

#define CHECK(expr) check_record(!!(expr), __FILE__, __LINE__, #expr)

/* Integer equality that also prints both values when it fails. */
#define CHECK_EQ(actual, expected) do {                                         \
        uint64_t check_a_ = (uint64_t)(actual), check_e_ = (uint64_t)(expected); \
        check_record(check_a_ == check_e_, __FILE__, __LINE__,                  \
                     #actual " == " #expected);                                 \
        if (check_a_ != check_e_)                                               \
            fprintf(stderr, "    got %" PRId64 " (0x%" PRIx64 "), "             \
                    "expected %" PRId64 " (0x%" PRIx64 ")\n",                   \
                    (int64_t)check_a_, check_a_, (int64_t)check_e_, check_e_);  \
    } while (0)

#define CHECK_STR(actual, expected) do {                                        \
        const char *check_a_ = (actual), *check_e_ = (expected);                \
        int check_ok_ = check_a_ && strcmp(check_a_, check_e_) == 0;            \
        check_record(check_ok_, __FILE__, __LINE__, #actual " == " #expected);  \
        if (!check_ok_)                                                         \
            fprintf(stderr, "    got \"%s\", expected \"%s\"\n",                \
                    check_a_ ? check_a_ : "(null)", check_e_);                  \
    } while (0)

/* Substring check, for messages that must mention something. */
#define CHECK_CONTAINS(haystack, needle) do {                                   \
        const char *check_h_ = (haystack), *check_n_ = (needle);                \
        int check_ok_ = check_h_ && strstr(check_h_, check_n_) != NULL;         \
        check_record(check_ok_, __FILE__, __LINE__,                             \
                     #haystack " contains " #needle);                           \
        if (!check_ok_)                                                         \
            fprintf(stderr, "    \"%s\" does not contain \"%s\"\n",             \
                    check_h_ ? check_h_ : "(null)", check_n_);                  \
    } while (0)

/* Reads a whole input file (a DTB, an ELF) or exits with status 2. */
static inline uint8_t *read_test_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

static inline int check_summary(const char *suite)
{
    printf("%s: %d passed, %d failed\n", suite, check_passed, check_failed);
    return check_failed == 0 ? 0 : 1;
}

#endif
