/* Calls: eight arguments, argument and result conversions, void
 * functions, calls inside the arguments of calls, deep expressions. */
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

long eight(int a, int b, int c, int d, int e, int f, int g, long h)
{
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h;
}

int add(int a, int b) { return a + b; }
long widen(long x) { return x * 2; }
char narrow(int x) { return x; }
int sign(char c) { return c; }

int state;
void set(int v) { state = v; }

int depth(int n)
{
    return ((((((((n + 1) * 2 + 3) * (n + 4) - (n + 5)) * (n + 6) + (n + 7)) * (n + 8) - (n + 9))
             + (n + 10) * (n + 11)) - ((n + 12) * ((n + 13) * ((n + 14) * ((n + 15) * ((n + 16) * (n + 17) + 1) + 2) + 3) + 4))));
}

int main()
{
    show("eight", eight(1, 2, 3, 4, 5, 6, 7, 8000000000L));
    show("nested", add(add(1, 2), add(add(3, 4), add(5, 6))));
    show("mixed", add(1, 2) * add(3, 4) + add(5, 6) * add(7, add(8, 9)));
    show("widen", widen(2000000000));
    show("narrow", narrow(0x1234));
    show("sign", sign(250));
    set(7);
    show("void", state);
    show("depth", depth(1));
    int a = 3, b = 4;
    show("spill", a * add(b, a) + b * add(a * b, add(a, b)) - a);
    show("args", eight(add(1, 1), add(2, 2), 3, add(4, add(4, 4)), 5, 6, add(7, 0), widen(4)));
    return 0;
}
