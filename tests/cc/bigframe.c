/* Large frames and constants: locals beyond the 2 KiB reach of an
 * instruction's offset, 64-bit constants, and a long function. */
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

long work(int n)
{
    int big[3000];
    long after = 5;
    int i;
    for (i = 0; i < 3000; i++)
        big[i] = i + n;
    after += big[2999] + big[0];
    return after;
}

int main()
{
    char block[5000];
    int last = 0;
    block[4999] = 7;
    block[0] = 3;
    last = block[4999] + block[0];
    show("block", last);
    show("work", work(10));
    show("k1", 0x7ffff800);
    show("k2", 0x80000000L);
    show("k3", 0x7fffffffffffffffL);
    show("k4", -0x7fffffffffffffffL - 1 + 1);
    show("k5", 0x12345678abcL);
    show("k6", 2048);
    show("k7", -2049);
    show("k8", -0x7fffffff - 1);
    show("k9", -0x80000001L);
    show("k10", 0xfff0000000000L);
    long x = 1;
    x += 100000;
    x -= 4096;
    show("imm", x);
    return 0;
}
