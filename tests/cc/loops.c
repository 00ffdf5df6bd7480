/* Loops: while, do-while and for, with break and continue, nested,
 * declarations in for, the comma operator, and empty bodies. */
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
    int i = 0, s = 0;
    while (1) {
        i++;
        if (i > 100)
            break;
        if (i % 2)
            continue;
        s += i;
    }
    show("while", s);
    i = 0;
    s = 0;
    do {
        s += i;
        i += 3;
        if (i == 9)
            continue;
    } while (i < 30);
    show("do", s);
    s = 0;
    for (int j = 0; j < 10; j++) {
        for (int k = 0; k < 10; k++) {
            if (k > j)
                break;
            if ((j + k) % 3 == 0)
                continue;
            s += j * k;
        }
    }
    show("nested", s);
    int a, b;
    for (a = 0, b = 10; a < b; a++, b--)
        ;
    show("comma a", a);
    show("comma b", b);
    s = 0;
    for (;;) {
        if (++s == 7)
            break;
    }
    show("forever", s);
    i = 5;
    do
        i--;
    while (i > 0);
    show("do1", i);
    int primes = 0;
    for (int n = 2; n < 200; n++) {
        int d;
        for (d = 2; d * d <= n; d++)
            if (n % d == 0)
                break;
        if (d * d > n)
            primes++;
    }
    show("primes", primes);
    i = 0;
    while (i < 3) {
        int inner = i * 10;
        i++;
        show("inner", inner);
    }
    return 0;
}
