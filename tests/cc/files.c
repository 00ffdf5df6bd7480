/* Files: create a ram file, write it, read it back, and the runtime's
 * error results. */
int putchar(int c);

void prints(char *s) { while (*s) putchar(*s++); }
void printn(long n)
{
    if (n < 0) {
        putchar('-');
        n = -n;
    }
    if (n >= 10)
        printn(n / 10);
    putchar('0' + n % 10);
}
void show(char *label, long v) { prints(label); putchar(' '); printn(v); putchar('\n'); }

int main()
{
    char buf[64];
    int fd = open("cctest.tmp", O_WRONLY | O_CREAT | O_TRUNC);
    show("open", fd > 2);
    show("write", write(fd, "0123456789", 10));
    close(fd);
    fd = open("cctest.tmp", O_RDONLY);
    int n = read(fd, buf, 64);
    show("read", n);
    buf[n] = 0;
    prints(buf);
    putchar('\n');
    show("eof", read(fd, buf, 64));
    close(fd);
    show("missing", open("no-such-file", O_RDONLY) < 0);
    show("badfd", write(99, "x", 1) < 0);
    show("putchar", putchar('!'));
    putchar('\n');
    return 0;
}
