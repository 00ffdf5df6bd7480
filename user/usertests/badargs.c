/*
 * usertests: bad arguments: pointers the kernel must not follow, paths,
 * structures, descriptors and a system call that does not exist.
 */
#include "usertests.h"

#define BAD_FD            99                      /* above any per-process fd table */
#define UNUSED_FD         10                      /* in range, but never opened here */
#define UNKNOWN_SYSCALL   9999

/* ------------------------------------------------------- bad pointers */

#define RW_FILE "/ut-badptr"

void badreadwrite(void)
{
    char buf[16];
    int in = open_checked("/echo", O_RDONLY);
    expect("read(NULL)", read(in, NULL, 10), -EFAULT);
    expect("read(kernel address)", read(in, kernel_ptr(), 10), -EFAULT);
    expect("read(across the top of user space)",
           read(in, (void *)ACROSS_TOP_ADDR, ACROSS_TOP_LEN), -EFAULT);
    expect("read(huge length)", read(in, buf, HUGE_LEN), -EFAULT);
    expect("read(length wrapping the address space)", read(in, buf, (size_t)0 - 8), -EFAULT);

    /* The kernel must honour page permissions when it writes for us. */
    static const char rodata_bytes[16] = "read-only bytes";
    char text_before[16];
    memcpy(text_before, (const void *)badreadwrite, sizeof text_before);
    expect("read into text", read(in, (void *)badreadwrite, sizeof buf), -EFAULT);
    CHECK(memcmp(text_before, (const void *)badreadwrite, sizeof text_before) == 0,
          "read into text changed the code");
    expect("read into rodata", read(in, (void *)rodata_bytes, sizeof rodata_bytes), -EFAULT);
    close(in);

    /* Writes go to a RAM file: the kernel must copy them (/dev/null might
     * not look at the buffer at all). */
    int out = open_checked(RW_FILE, O_WRONLY | O_CREAT | O_TRUNC);
    expect("write(NULL)", write(out, NULL, 10), -EFAULT);
    expect("write(kernel address)", write(out, kernel_ptr(), 10), -EFAULT);
    expect("write(across the top of user space)",
           write(out, (void *)ACROSS_TOP_ADDR, ACROSS_TOP_LEN), -EFAULT);
    expect("write(huge length)", write(out, buf, HUGE_LEN), -EFAULT);
    close(out);
    struct fl_stat st;
    int fd = open_checked(RW_FILE, O_RDONLY);
    expect("fstat", fstat(fd, &st), 0);
    expect("size of the file after failed writes", (long)st.size, 0);
    close(fd);
    expect("unlink", unlink(RW_FILE), 0);
}

void badpath(void)
{
    expect("open(NULL)", open(NULL, O_RDONLY), -EFAULT);
    expect("open(kernel address)", open(kernel_ptr(), O_RDONLY), -EFAULT);
    expect("open(unterminated)", open(unterminated_string(), O_RDONLY), -EFAULT);
    expect("open(FL_PATH_MAX chars)", open(long_path(FL_PATH_MAX), O_RDONLY), -ENAMETOOLONG);
    expect("open(FL_PATH_MAX chars, O_CREAT)",
           open(long_path(FL_PATH_MAX), O_WRONLY | O_CREAT), -ENAMETOOLONG);
    /* The longest legal path is just a name that does not exist. */
    expect("open(FL_PATH_MAX-1 chars)", open(long_path(FL_PATH_MAX - 1), O_RDONLY), -ENOENT);

    expect("unlink(NULL)", unlink(NULL), -EFAULT);
    expect("unlink(kernel address)", unlink(kernel_ptr()), -EFAULT);
    expect("unlink(unterminated)", unlink(unterminated_string()), -EFAULT);
    expect("unlink(FL_PATH_MAX chars)", unlink(long_path(FL_PATH_MAX)), -ENAMETOOLONG);
}

void badexec(void)
{
    char *argv[] = { "echo", NULL };
    expect_exec_error("exec(NULL)", NULL, argv, -EFAULT);
    expect_exec_error("exec(kernel address)", kernel_ptr(), argv, -EFAULT);
    expect_exec_error("exec(unterminated)", unterminated_string(), argv, -EFAULT);
    expect_exec_error("exec(FL_PATH_MAX chars)", long_path(FL_PATH_MAX), argv, -ENAMETOOLONG);

    expect_exec_error("exec(argv = kernel address)", "/echo", kernel_ptr(), -EFAULT);
    char *bad_entry[] = { "echo", kernel_ptr(), NULL };
    expect_exec_error("exec(argv[1] = kernel address)", "/echo", bad_entry, -EFAULT);
    char *null_page_entry[] = { "echo", (char *)1, NULL };
    expect_exec_error("exec(argv[1] = 1)", "/echo", null_page_entry, -EFAULT);
    char *unterminated_entry[] = { "echo", unterminated_string(), NULL };
    expect_exec_error("exec(argv[1] unterminated)", "/echo", unterminated_entry, -EFAULT);

    /* An argv array with no NULL before the unmapped page. */
    char **open_ended = (char **)(last_heap_page() + PAGE_SIZE - 2 * sizeof(char *));
    open_ended[0] = "echo";
    open_ended[1] = "x";
    expect_exec_error("exec(argv without NULL)", "/echo", open_ended, -EFAULT);
}

/* Forks a child that exits at once; returns its pid. */
static int fork_exiting_child(void)
{
    int pid = fork();
    CHECK(pid >= 0, "fork: %s", strerror(pid));
    if (pid == 0)
        exit(0);
    return pid;
}

/* Whether a failed wait consumed the child is the kernel's choice: either
 * it is still there to reap, or it is gone. */
static void reap_if_still_there(int pid)
{
    int r = wait(NULL);
    CHECK(r == pid || r == -ECHILD, "wait after a failed wait: %d", r);
}

void badwait(void)
{
    int pid = fork_exiting_child();
    expect("wait(kernel address)", wait(kernel_ptr()), -EFAULT);
    reap_if_still_there(pid);

    pid = fork_exiting_child();
    expect("wait_pid(child, text address)", wait_pid(pid, (int *)(uintptr_t)badwait, 0), -EFAULT);
    reap_if_still_there(pid);

    pid = fork_exiting_child();
    expect("wait_pid(-1, across the top)",
           wait_pid(-1, (int *)(USER_TOP - sizeof(int) / 2), 0), -EFAULT);
    reap_if_still_there(pid);
}

void badstructs(void)
{
    void *across_top = (void *)(USER_TOP - sizeof(uint64_t));  /* struct runs past the top */
    void *rodata = (void *)"a string constant in rodata, long enough for any of the structs, "
                           "which is what the kernel must refuse to write through.....";

    expect("procinfo(NULL)", procinfo(NULL, 4), -EFAULT);
    expect("procinfo(kernel address)", procinfo(kernel_ptr(), 4), -EFAULT);
    expect("procinfo(across the top)", procinfo(across_top, 4), -EFAULT);
    expect("procinfo(rodata)", procinfo(rodata, 1), -EFAULT);

    expect("times(NULL)", times(NULL), -EFAULT);
    expect("times(kernel address)", times(kernel_ptr()), -EFAULT);
    expect("times(across the top)", times(across_top), -EFAULT);
    expect("times(rodata)", times(rodata), -EFAULT);

    int fd = open_checked("/echo", O_RDONLY);
    expect("fstat(NULL)", fstat(fd, NULL), -EFAULT);
    expect("fstat(kernel address)", fstat(fd, kernel_ptr()), -EFAULT);
    expect("fstat(across the top)", fstat(fd, across_top), -EFAULT);
    close(fd);

    expect("readdir(NULL)", readdir(0, NULL), -EFAULT);
    expect("readdir(kernel address)", readdir(0, kernel_ptr()), -EFAULT);
    expect("readdir(across the top)", readdir(0, across_top), -EFAULT);

    expect("sysinfo(NULL)", sysinfo(NULL), -EFAULT);
    expect("sysinfo(kernel address)", sysinfo(kernel_ptr()), -EFAULT);
    expect("sysinfo(across the top)", sysinfo(across_top), -EFAULT);
    expect("sysinfo(rodata)", sysinfo(rodata), -EFAULT);

    /* Whether a join that could not store the value still consumed the
     * thread is the kernel's choice, as for wait. */
    int tid = thread_create(return_arg, NULL);
    CHECK(tid > 0, "thread_create: %s", strerror(tid));
    expect("thread_join(tid, kernel address)", sys_thread_join(tid, kernel_ptr()), -EFAULT);
    int r = thread_join(tid, NULL);
    CHECK(r == 0 || r == -ESRCH, "thread_join after a failed join: %d", r);
}

void badfd(void)
{
    char c = 0;
    struct fl_stat st;
    expect("read(99)", read(BAD_FD, &c, 1), -EBADF);
    expect("read(-1)", read(-1, &c, 1), -EBADF);
    expect("read(unused fd)", read(UNUSED_FD, &c, 1), -EBADF);
    expect("write(99)", write(BAD_FD, &c, 1), -EBADF);
    expect("write(-1)", write(-1, &c, 1), -EBADF);
    expect("close(99)", close(BAD_FD), -EBADF);
    expect("close(unused fd)", close(UNUSED_FD), -EBADF);
    expect("dup(99)", dup(BAD_FD), -EBADF);
    expect("fstat(99)", fstat(BAD_FD, &st), -EBADF);

    /* The access mode counts: reading a write-only fd and the reverse. */
    int ro = open_checked("/echo", O_RDONLY);
    expect("write to an O_RDONLY fd", write(ro, &c, 1), -EBADF);
    expect("close", close(ro), 0);
    expect("close twice", close(ro), -EBADF);
    expect("read after close", read(ro, &c, 1), -EBADF);

    int wo = open_checked("/dev/null", O_WRONLY);
    expect("read from an O_WRONLY fd", read(wo, &c, 1), -EBADF);
    close(wo);
}

void badsyscall(void)
{
    expect("syscall 9999", raw_syscall(UNKNOWN_SYSCALL, 0, 0, 0, 0, 0, 0), -ENOSYS);
    expect("syscall 0", raw_syscall(0, 0, 0, 0, 0, 0, 0), -ENOSYS);
    expect("syscall SYS_COUNT", raw_syscall(SYS_COUNT, 0, 0, 0, 0, 0, 0), -ENOSYS);
    expect("syscall -1", raw_syscall(-1, 0, 0, 0, 0, 0, 0), -ENOSYS);
    CHECK(getpid() > 0, "process broken after unknown system calls");
}
