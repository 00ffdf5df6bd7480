/*
 * splitmix64 (Steele, Lea, Flood): a counter stepped by MIX64_GAMMA and
 * passed through mix64 gives a stream of unrelated words; mix64 alone
 * turns any 64-bit value into a well-spread one. For programs that need
 * reproducible pseudo-random data (fuzz, hog); no state of its own.
 */
#ifndef FAULTLINE_USER_MIX64_H
#define FAULTLINE_USER_MIX64_H

#include <stdint.h>

#define MIX64_GAMMA 0x9e3779b97f4a7c15ULL   /* the counter's step */

static inline uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

#endif
