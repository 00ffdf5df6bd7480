/*
 * usertests: a process ended by a signal: its own faults, and kill of a
 * sleeper and of a thread running in user mode.
 */
#include "usertests.h"

#define KILL_DEADLINE_MS  5000     /* a killed sleeper must be gone well before it would wake */

/* ------------------------------------------------------------ faults */

/* Pointers pass through volatile variables: a constant NULL or kernel
 * address would let GCC see undefined behaviour and emit a trap
 * instruction instead of the access we mean to test. */
static void load_null(void)
{
    volatile int *volatile p = NULL;   /* volatile target too, or the load is dropped */
    (void)*p;
}

static void store_null(void)
{
    volatile int *volatile p = NULL;
    *p = 1;
}

static void load_kernel(void)
{
    volatile long *volatile p = kernel_ptr();
    (void)*p;
}

static void illegal_instruction(void)
{
    __asm__ volatile(".word 0");   /* the all-zero encoding is always illegal */
}

static void store_text(void)
{
    volatile uint32_t *volatile p = (uint32_t *)(uintptr_t)store_text;
    *p = 0;
}

static const int constant_in_rodata = 42;

static void store_rodata(void)
{
    volatile int *volatile p = (int *)&constant_in_rodata;
    *p = 0;
}

static void jump_kernel(void)
{
    void (*volatile fn)(void) = (void (*)(void))KERNEL_ADDR;
    fn();
}

#define RISCV_RET 0x00008067u   /* jalr x0, 0(ra) */
static uint32_t code_in_data[] = { RISCV_RET };

static void jump_data(void)
{
    void (*volatile fn)(void) = (void (*)(void))(uintptr_t)code_in_data;
    fn();
}

void faults(void)
{
    expect_killed("load from NULL", load_null, SIGSEGV);
    expect_killed("store to NULL", store_null, SIGSEGV);
    expect_killed("load from a kernel address", load_kernel, SIGSEGV);
    expect_killed("illegal instruction", illegal_instruction, SIGILL);
    expect_killed("store to text", store_text, SIGSEGV);
    expect_killed("store to rodata", store_rodata, SIGSEGV);
    expect_killed("jump to a kernel address", jump_kernel, SIGSEGV);
    expect_killed("jump into data", jump_data, SIGSEGV);
}

/* ------------------------------------------------------------ signals */

void killsleeper(void)
{
    static const int sigs[] = { SIGKILL, SIGTERM };
    for (size_t i = 0; i < ARRAY_SIZE(sigs); i++) {
        int pid = fork();
        CHECK(pid >= 0, "fork: %s", strerror(pid));
        if (pid == 0) {
            sleep(SLEEP_FOREVER_MS);
            exit(0);
        }
        sleep(SLEEP_MS);   /* let it fall asleep */
        long start = uptime();
        expect("kill", kill(pid, sigs[i]), 0);
        int status;
        expect("wait_pid", wait_pid(pid, &status, 0), pid);
        CHECK(!FL_WIFEXITED(status), "killed sleeper exited with %d", FL_WEXITSTATUS(status));
        /* Until full signals land every signal kills, and the status names it. */
        expect("signal in the status", FL_WTERMSIG(status), sigs[i]);
        CHECK(uptime() - start < KILL_DEADLINE_MS, "kill did not wake the sleeper");
    }

    expect("kill(no such pid)", kill(BOGUS_ID, SIGKILL), -ESRCH);
    expect("kill(self, NSIG)", kill(getpid(), NSIG), -EINVAL);
    expect("kill(self, -1)", kill(getpid(), -1), -EINVAL);
}

void spin_forever(void)
{
    for (;;)
        ;
}

/* A thread running in user mode, maybe on another hart, must be stopped. */
void killspinner(void)
{
    int pid = fork();
    CHECK(pid >= 0, "fork: %s", strerror(pid));
    if (pid == 0)
        spin_forever();
    sleep(SLEEP_MS);
    expect("kill", kill(pid, SIGKILL), 0);
    int status;
    expect("wait_pid", wait_pid(pid, &status, 0), pid);
    expect("signal in the status", FL_WTERMSIG(status), SIGKILL);
}
