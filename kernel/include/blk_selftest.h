/* selftest=blk (kernel/dev/blk_selftest.c): write, read back and verify
 * pages across the disk; prints one "faultline: selftest: blk: " line.
 * Sleeps: call it from a kernel thread. */
#ifndef FAULTLINE_BLK_SELFTEST_H
#define FAULTLINE_BLK_SELFTEST_H
void blk_selftest(void);
#endif
