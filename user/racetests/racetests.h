/*
 * What the files of racetests share: the times every test waits by, the
 * helpers (main.c) and the tests, one function each, run in the order of
 * main.c's tables. files.c holds the races on ram files and the fd table,
 * exec.c those of exec and of signals by tid, memory.c those of paging,
 * the disk and the promises under mm=swap.
 */
#ifndef FAULTLINE_RACETESTS_H
#define FAULTLINE_RACETESTS_H

#include "ulib.h"
#include "testrun.h"


#define LONG_SLEEP_MS     60000    /* far longer than any test takes */
#define SETTLE_MS         100      /* time for a thread to reach its loop or its sleep */
#define DEADLINE_MS       15000    /* a child that takes longer has hung */
#define POLL_MS           10
#define PAGE_BYTES        4096

/* main.c: helpers */
int  wait_deadline(int pid, long ms);
void expect_exit(const char *what, int status, int code);
int  start_thread(thread_fn fn, void *arg);
void join(int tid, long want);
long file_size(const char *name);

/* Two threads meet here before each round, so their calls overlap. */
struct barrier { int arrived; int round; };
void barrier_wait(struct barrier *b, int parties);

/* files.c */
void openclose(void);
void readreopen(void);
void fdinstall(void);
void closetwice(void);

/* exec.c */
void execspin(void);
void execsleep(void);
void execjoin(void);
void execkill(void);
void tkillcheck(void);
void tkillself(void);

/* memory.c */
void diskwake(void);
void swaphuge(void);
void swapgrow(void);
void swapexec(void);
void pagingstarve(void);

#endif
