/*
 * ulftests: user-level fault handlers (docs/ulf.md), in the manner of
 * sel4test's fault tests. The test process is the handler: it forks a
 * held child, makes a region of the child managed, and the child touches
 * labelled addresses in it. The handler checks each fault message (who,
 * where, what access, which pc) against the label, answers, and checks
 * what the child saw. Then every protection rule the kernel enforces, and
 * what happens to waiting threads when a handler is killed, exits or
 * faults itself, and an emulator answering, inspecting and changing a
 * child's system calls. Output is testrun's (tests/test_ulf.py reads it).
 */
#include "testrun.h"

#define PAGE          4096UL
#define REGION_PAGES  8
#define POOL_FRAMES   8
/* The managed region of every child: far from its image, heap and stack. */
#define BASE          ((char *)0x2000000000UL)
#define LABEL_READ    (BASE + 0x128)
#define LABEL_WRITE   (BASE + 1 * PAGE + 0x40)
#define LABEL_EXEC    (BASE + 2 * PAGE)
#define LABEL_UPGRADE (BASE + 3 * PAGE + 0x8)
#define LABEL_REFUSED (BASE + 4 * PAGE + 0x78)
#define LABEL_COPYIN  (BASE + 5 * PAGE + 0x100)
#define LABEL_COPYOUT (BASE + 6 * PAGE + 0x200)
#define PAGE_OF(a)    ((char *)((uintptr_t)(a) & ~(PAGE - 1)))
#define READ_PATTERN  0x5a5aa5a5c3c33c3cUL
#define WRITTEN       0xfeedUL
#define KERNEL_ADDR   ((void *)0xffffffc080200000UL)
#define RWX           (FL_PROT_READ | FL_PROT_WRITE | FL_PROT_EXEC)
#define RW            (FL_PROT_READ | FL_PROT_WRITE)
/* Child exit codes: what it saw went wrong. */
#define BAD_VALUE     2
#define NOT_REFUSED   4
#define COPY_FAILED   5
#define RESUMED_DEAD  6
/* A handler's ending, and how long a test waits for its client to go. */
#define VICTIM_FILE   "/ulf-victim"
#define COPY_FILE     "/ulf-copy"
#define GONE_POLLS    500
#define GONE_NAP_MS   10
#define MAX_PROCS_SHOWN 64

static char *pool;

static char *frame(int i)
{
    return pool + (unsigned long)i * PAGE;
}

/* A held child running body, with [BASE, BASE + REGION_PAGES pages)
 * managed by the caller with rights prot, then released. */
static int managed_child(void (*body)(void), int prot)
{
    int pid = ulf_fork_held();
    CHECK(pid >= 0, "fork: %s", strerror(pid));
    if (pid == 0) {
        body();
        exit(0);
    }
    expect("ulf_attach", ulf_attach(pid, BASE, REGION_PAGES * PAGE, prot, FL_ULF_REGION),
           (long)BASE);
    if (!pool) {
        pool = ulf_grant(POOL_FRAMES);
        CHECK(!ptr_error(pool), "ulf_grant: %s", strerror((int)ptr_error(pool)));
    }
    expect("release the child", ulf_release(pid), 0);
    return pid;
}

static void recv_fault(struct fl_ulf_msg *m, int pid, int access, const char *addr)
{
    expect("ulf_recv", ulf_recv(m), 0);
    expect("message kind", m->kind, FL_ULF_FAULT);
    expect("message pid", m->pid, pid);
    expect("message access", m->access, access);
    expect("message address", (long)m->addr, (long)addr);
    CHECK(m->tid > 0, "message tid %d", m->tid);
    CHECK(access == FL_ULF_EXEC || (m->pc >= 0x10000 && m->pc < (uint64_t)BASE),
          "message pc 0x%lx is not in the image", (unsigned long)m->pc);
}

static void load_and_resume(const struct fl_ulf_msg *m, int pid, int f, int prot)
{
    expect("ulf_load", ulf_load(pid, PAGE_OF(m->addr), frame(f), prot), 0);
    expect("ulf_resume", ulf_resume(m->tid, FL_ULF_RETRY, 0), 0);
}

static void expect_exit(int pid, int code)
{
    int status = 0;
    expect("wait_pid", wait_pid(pid, &status, 0), pid);
    CHECK(FL_WIFEXITED(status), "child killed by signal %d", FL_WTERMSIG(status));
    expect("child's exit code", FL_WEXITSTATUS(status), code);
}

/* --- faults at labelled addresses, restarted after the load --- */

static void read_body(void)
{
    exit(*(volatile uint64_t *)LABEL_READ == READ_PATTERN ? 0 : BAD_VALUE);
}

static void read_fault(void)
{
    int pid = managed_child(read_body, RWX);
    struct fl_ulf_msg m;
    recv_fault(&m, pid, FL_ULF_READ, LABEL_READ);
    *(uint64_t *)(frame(0) + ((uintptr_t)LABEL_READ & (PAGE - 1))) = READ_PATTERN;
    load_and_resume(&m, pid, 0, FL_PROT_READ);
    expect_exit(pid, 0);
}

static void write_body(void)
{
    *(volatile uint64_t *)LABEL_WRITE = WRITTEN;
}

static void write_fault(void)
{
    int pid = managed_child(write_body, RWX);
    struct fl_ulf_msg m;
    recv_fault(&m, pid, FL_ULF_WRITE, LABEL_WRITE);
    load_and_resume(&m, pid, 1, RW);
    expect_exit(pid, 0);
    /* The child wrote into the handler's own frame. */
    expect("the child's write in the frame",
           (long)*(uint64_t *)(frame(1) + ((uintptr_t)LABEL_WRITE & (PAGE - 1))), WRITTEN);
}

/* addi a0, zero, 42; ret */
static const uint32_t answer_code[] = { 0x02a00513, 0x00008067 };
#define ANSWER 42

static void exec_body(void)
{
    int (*fn)(void) = (int (*)(void))(uintptr_t)LABEL_EXEC;
    exit(fn() == ANSWER ? 0 : BAD_VALUE);
}

static void exec_fault(void)
{
    int pid = managed_child(exec_body, RWX);
    struct fl_ulf_msg m;
    recv_fault(&m, pid, FL_ULF_EXEC, LABEL_EXEC);
    memcpy(frame(2), answer_code, sizeof answer_code);
    __asm__ volatile("fence.i" ::: "memory");
    /* An instruction fetch faults with the pc at the address itself. */
    expect("exec fault pc", (long)m.pc, (long)LABEL_EXEC);
    expect("ulf_load", ulf_load(pid, LABEL_EXEC, frame(2), FL_PROT_READ | FL_PROT_EXEC), 0);
    expect("ulf_resume", ulf_resume(m.tid, FL_ULF_RETRY, 0), 0);
    expect_exit(pid, 0);
}

static void upgrade_body(void)
{
    volatile uint64_t *p = (volatile uint64_t *)LABEL_UPGRADE;
    uint64_t v = *p;
    *p = v + 1;
}

static void permission_upgrade(void)
{
    int pid = managed_child(upgrade_body, RWX);
    uint64_t *word = (uint64_t *)(frame(3) + ((uintptr_t)LABEL_UPGRADE & (PAGE - 1)));
    *word = ANSWER - 1;
    struct fl_ulf_msg m;
    recv_fault(&m, pid, FL_ULF_READ, LABEL_UPGRADE);
    load_and_resume(&m, pid, 3, FL_PROT_READ);
    /* The same page, written: the same frame, loaded again with more. */
    recv_fault(&m, pid, FL_ULF_WRITE, LABEL_UPGRADE);
    load_and_resume(&m, pid, 3, RW);
    expect_exit(pid, 0);
    expect("the upgraded write", (long)*word, ANSWER);
}

static void on_segv(int sig, uint64_t addr, struct fl_sigframe *frame_)
{
    (void)sig, (void)frame_;
    exit(addr == (uint64_t)LABEL_REFUSED ? 0 : BAD_VALUE);
}

static void refused_caught_body(void)
{
    signal(SIGSEGV, on_segv);
    (void)*(volatile char *)LABEL_REFUSED;
    exit(NOT_REFUSED);
}

static void refused_body(void)
{
    (void)*(volatile char *)LABEL_REFUSED;
    exit(NOT_REFUSED);
}

static void refused_fault(void)
{
    /* Caught: the handler of SIGSEGV gets the faulting address. */
    int pid = managed_child(refused_caught_body, RWX);
    struct fl_ulf_msg m;
    recv_fault(&m, pid, FL_ULF_READ, LABEL_REFUSED);
    expect("ulf_resume(SIGSEGV)", ulf_resume(m.tid, FL_ULF_SIGNAL, SIGSEGV), 0);
    expect_exit(pid, 0);
    /* Not caught: the kill line names the refusal. */
    pid = managed_child(refused_body, RWX);
    recv_fault(&m, pid, FL_ULF_READ, LABEL_REFUSED);
    expect("ulf_resume(SIGSEGV)", ulf_resume(m.tid, FL_ULF_SIGNAL, SIGSEGV), 0);
    int status = 0;
    expect("wait_pid", wait_pid(pid, &status, 0), pid);
    CHECK(!FL_WIFEXITED(status) && FL_WTERMSIG(status) == SIGSEGV,
          "refused child: status 0x%x, not killed by SIGSEGV", status);
}

/* write() reads the user buffer into a ram file, read() writes it:
 * both in the kernel's copy routines. */
static void copy_body(void)
{
    int out = open(COPY_FILE, O_WRONLY | O_CREAT | O_TRUNC);
    if (out < 0 || write(out, LABEL_COPYIN, 64) != 64)
        exit(COPY_FAILED);
    close(out);
    unlink(COPY_FILE);
    int self = open("/ulftests", O_RDONLY);
    if (self < 0 || read(self, LABEL_COPYOUT, 4) != 4 || memcmp(LABEL_COPYOUT, "\177ELF", 4))
        exit(COPY_FAILED);
}

static void usercopy_fault(void)
{
    int pid = managed_child(copy_body, RW);
    struct fl_ulf_msg m;
    recv_fault(&m, pid, FL_ULF_READ, LABEL_COPYIN);
    load_and_resume(&m, pid, 4, FL_PROT_READ);
    recv_fault(&m, pid, FL_ULF_WRITE, LABEL_COPYOUT);
    load_and_resume(&m, pid, 5, RW);
    expect_exit(pid, 0);
}

/* FL_ULF_SPACE: a mapping the child makes after the attach is managed. */
#define SPACE_WORD 0x5ace

static void space_body(void)
{
    volatile uint64_t *p = mmap(NULL, PAGE, RW, FL_MAP_ANON);
    if (ptr_error((void *)p))
        exit(COPY_FAILED);
    *p = SPACE_WORD;
    exit(*p == SPACE_WORD ? 0 : BAD_VALUE);
}

static void whole_space(void)
{
    int pid = ulf_fork_held();
    CHECK(pid >= 0, "fork: %s", strerror(pid));
    if (pid == 0) {
        space_body();
        exit(0);
    }
    expect("ulf_attach", ulf_attach(pid, NULL, 0, 0, FL_ULF_SPACE), 0);
    if (!pool) {
        pool = ulf_grant(POOL_FRAMES);
        CHECK(!ptr_error(pool), "ulf_grant: %s", strerror((int)ptr_error(pool)));
    }
    expect("release the child", ulf_release(pid), 0);
    /* Its stack may fault too: every fault gets the next frame. */
    struct fl_ulf_msg m;
    int next = 0, writes = 0;
    long r;
    while ((r = ulf_recv(&m)) == 0) {
        CHECK(m.kind == FL_ULF_FAULT && next < POOL_FRAMES, "message %d, frame %d", m.kind, next);
        writes += m.access == FL_ULF_WRITE;
        memset(frame(next), 0, PAGE);
        load_and_resume(&m, pid, next++, RW);
    }
    expect("recv at the end", r, -ESRCH);
    expect_exit(pid, 0);
    CHECK(writes > 0, "the mapping's write never came");
}

/* --- every protection rule, each with its error --- */

static void idle_body(void)
{
    for (;;)
        sleep(1000);
}

static char own_page[PAGE] __attribute__((aligned(PAGE)));

static void protection(void)
{
    int pid = managed_child(idle_body, FL_PROT_READ);
    own_page[0] = 1;
    expect("wider rights than the region", ulf_load(pid, BASE, frame(0), RW), -EACCES);
    expect("a frame not granted (own data)", ulf_load(pid, BASE, own_page, FL_PROT_READ), -EPERM);
    expect("a frame not granted (unmapped)", ulf_load(pid, BASE, BASE, FL_PROT_READ), -EPERM);
    expect("a kernel frame", ulf_load(pid, BASE, KERNEL_ADDR, FL_PROT_READ), -EFAULT);
    expect("a kernel page", ulf_load(pid, KERNEL_ADDR, frame(0), FL_PROT_READ), -EFAULT);
    expect("an unmanaged space (self)", ulf_load(getpid(), BASE, frame(0), FL_PROT_READ), -ESRCH);
    expect("an unmanaged space (init)", ulf_load(1, BASE, frame(0), FL_PROT_READ), -ESRCH);
    expect("a page outside the region",
           ulf_load(pid, BASE + REGION_PAGES * PAGE, frame(0), FL_PROT_READ), -ENXIO);
    expect("the child's own text", ulf_load(pid, (void *)0x10000, frame(0), FL_PROT_READ), -ENXIO);
    expect("misaligned page", ulf_load(pid, BASE + 8, frame(0), FL_PROT_READ), -EINVAL);
    expect("no rights", ulf_load(pid, BASE, frame(0), 0), -EINVAL);
    expect("load", ulf_load(pid, BASE, frame(0), FL_PROT_READ), 0);
    expect("a frame already loaded", ulf_load(pid, BASE + PAGE, frame(0), FL_PROT_READ), -EBUSY);
    expect("a page holding another frame", ulf_load(pid, BASE, frame(1), FL_PROT_READ), -EBUSY);
    expect("unload", ulf_unload(pid, BASE, REGION_PAGES * PAGE), 1);
    expect("unload again", ulf_unload(pid, BASE, REGION_PAGES * PAGE), 0);
    expect("load after unload", ulf_load(pid, BASE + PAGE, frame(0), FL_PROT_READ), 0);
    expect("attach to a non-child", ulf_attach(1, 0, 0, 0, FL_ULF_HEAP), -ESRCH);
    expect("attach with bad flags", ulf_attach(pid, 0, 0, 0, 0x80), -EINVAL);
    expect("resume a thread that waits for nobody", ulf_resume(pid, FL_ULF_RETRY, 0), -ESRCH);
    expect("a second pool", (long)ulf_grant(1), -EEXIST);
    expect("kill the child", kill(pid, SIGKILL), 0);
    int status;
    expect("wait_pid", wait_pid(pid, &status, 0), pid);
}

static void quota(void)
{
    expect("more than the quota", (long)ulf_grant(FL_ULF_FRAME_QUOTA + 1), -EDQUOT);
    expect("no frames", (long)ulf_grant(0), -EINVAL);
    expect("recv with nothing managed", ulf_recv(NULL), -ESRCH);
}

/* --- trap forwarding: the emulator answers, or changes and passes --- */

#define EMULATED_PID  4242
#define EXIT_ASKED    3
#define EXIT_CHANGED  7
#define REG_A0        10
#define REG_A7        17

static void emulated_body(void)
{
    exit(getpid() == EMULATED_PID ? EXIT_ASKED : BAD_VALUE);
}

static void emulate(void)
{
    int pid = ulf_fork_held();
    CHECK(pid >= 0, "fork: %s", strerror(pid));
    if (pid == 0) {
        emulated_body();
        exit(0);
    }
    expect("ulf_attach", ulf_attach(pid, NULL, 0, 0, FL_ULF_SYSCALLS), 0);
    expect("release the child", ulf_release(pid), 0);
    struct fl_ulf_msg m;
    struct fl_ulf_regs regs;
    bool answered = false;
    for (;;) {
        expect("ulf_recv", ulf_recv(&m), 0);
        expect("message kind", m.kind, FL_ULF_SYSCALL);
        expect("message pid", m.pid, pid);
        expect("ulf_regs", ulf_regs(m.tid, &regs, 0), 0);
        expect("a7 is the call", (long)regs.regs[REG_A7], (long)m.nr);
        expect("regs[0] is the pc", (long)regs.regs[0], (long)m.pc);
        if (m.nr == SYS_getpid) {
            expect("a fault's answer to a call", ulf_resume(m.tid, FL_ULF_RETRY, 0), -EINVAL);
            expect("answer getpid", ulf_resume(m.tid, FL_ULF_RETURN, EMULATED_PID), 0);
            answered = true;
        } else if (m.nr == SYS_exit) {
            CHECK(answered, "exit before getpid");
            expect("exit's status", (long)m.args[0], EXIT_ASKED);
            regs.regs[REG_A0] = EXIT_CHANGED;
            expect("ulf_regs(write)", ulf_regs(m.tid, &regs, 1), 0);
            expect("pass exit", ulf_resume(m.tid, FL_ULF_PASS, 0), 0);
            break;
        } else {
            expect("pass a call", ulf_resume(m.tid, FL_ULF_PASS, 0), 0);
        }
    }
    expect_exit(pid, EXIT_CHANGED);
    expect("recv with nothing left", ulf_recv(&m), -ESRCH);
}

/* --- handlers that go away with threads waiting on them --- */

enum ending { BY_KILL, BY_EXIT, BY_FAULT };

static long toucher(void *arg)
{
    set_affinity(0, 1);             /* the second hart, if there is one */
    (void)*(volatile char *)arg;
    exit(RESUMED_DEAD);
}

static void two_threads_body(void)
{
    int tid = thread_create(toucher, BASE + PAGE);
    if (tid < 0)
        exit(COPY_FAILED);
    set_affinity(0, 0);
    (void)*(volatile char *)BASE;
    exit(RESUMED_DEAD);
}

static void write_victim(int pid)
{
    int fd = open(VICTIM_FILE, O_WRONLY | O_CREAT | O_TRUNC);
    CHECK(fd >= 0 && write(fd, &pid, sizeof pid) == sizeof pid, "cannot note the victim");
    close(fd);
}

static int read_victim(void)
{
    int pid = 0, fd = open(VICTIM_FILE, O_RDONLY);
    CHECK(fd >= 0 && read(fd, &pid, sizeof pid) == sizeof pid, "no victim noted");
    close(fd);
    unlink(VICTIM_FILE);
    return pid;
}

/* Never mapped (the first pages of every space), in a variable so the
 * compiler does not see the fault coming. */
static volatile uintptr_t bad_address = 8;

/* The handler in the middle: takes both faults, answers neither, ends. */
static void middle(enum ending how)
{
    int pid = managed_child(two_threads_body, RW);
    write_victim(pid);
    struct fl_ulf_msg m;
    expect("first fault", ulf_recv(&m), 0);
    expect("second fault", ulf_recv(&m), 0);
    if (how == BY_KILL)
        kill(getpid(), SIGKILL);
    else if (how == BY_FAULT)
        *(volatile int *)bad_address = 1;   /* the kernel's default: SIGSEGV */
    exit(0);
}

static bool alive(int pid)
{
    struct fl_procinfo info[MAX_PROCS_SHOWN];
    int n = procinfo(info, MAX_PROCS_SHOWN);
    for (int i = 0; i < n; i++)
        if (info[i].pid == pid && info[i].state != FL_PS_ZOMBIE)
            return true;
    return false;
}

static void handler_gone(enum ending how, int sig)
{
    int h = fork();
    CHECK(h >= 0, "fork: %s", strerror(h));
    if (h == 0) {
        middle(how);
        exit(0);
    }
    int status = 0;
    expect("wait_pid", wait_pid(h, &status, 0), h);
    if (sig)
        CHECK(!FL_WIFEXITED(status) && FL_WTERMSIG(status) == sig,
              "handler status 0x%x, expected signal %d", status, sig);
    else
        CHECK(FL_WIFEXITED(status) && FL_WEXITSTATUS(status) == 0, "handler status 0x%x", status);
    int victim = read_victim();
    for (int i = 0; i < GONE_POLLS && alive(victim); i++)
        sleep(GONE_NAP_MS);
    CHECK(!alive(victim), "pid %d still runs after its handler went", victim);
}

static void handler_killed(void) { handler_gone(BY_KILL, SIGKILL); }
static void handler_exits(void)  { handler_gone(BY_EXIT, 0); }
static void handler_faults(void) { handler_gone(BY_FAULT, SIGSEGV); }

static const struct test tests[] = {
    TEST(read_fault), TEST(write_fault), TEST(exec_fault), TEST(permission_upgrade),
    TEST(refused_fault), TEST(usercopy_fault), TEST(whole_space), TEST(protection), TEST(quota),
    TEST(emulate), TEST(handler_killed), TEST(handler_exits), TEST(handler_faults),
};

int main(int argc, char *argv[])
{
    current_test = "ulftests";
    printf("ulftests starting\n");
    return tests_summary(run_tests(tests, ARRAY_SIZE(tests), argc, argv));
}
