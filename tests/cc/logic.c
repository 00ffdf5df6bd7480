/* Conditions: short-circuit && and || with side effects, ?:, !, and
 * comparisons used as values and in branches. */
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

int calls;
int yes() { calls++; return 1; }
int no() { calls += 10; return 0; }

int main()
{
    calls = 0;
    show("and", no() && yes());
    show("calls", calls);
    calls = 0;
    show("or", yes() || no());
    show("calls", calls);
    calls = 0;
    show("and2", yes() && yes() && no() && yes());
    show("calls", calls);
    calls = 0;
    show("or2", no() || no() || yes() || no());
    show("calls", calls);
    int *p = 0;
    show("guard", p != 0 && *p == 1);
    show("not", !5 + !0 * 2 + !!7 * 4);
    int a = 5, b = 9;
    show("max", a > b ? a : b);
    show("min", a < b ? a : b);
    show("nested", a > 3 ? b > 10 ? 1 : 2 : 3);
    long l = a > 2 ? 3000000000L : 1;
    show("condlong", l);
    if (a < b && !(b < a) || no())
        prints("branch taken\n");
    if (!(a == 5) || b != 9)
        prints("wrong\n");
    else
        prints("else taken\n");
    int i, n = 0;
    for (i = 0; i < 20; i++)
        if ((i % 3 == 0 || i % 5 == 0) && !(i % 2 == 0))
            n += i;
    show("n", n);
    show("cmpval", (a < b) + (a <= 5) + (b > 9) + (b >= 9) + (a == b) + (a != b));
    char c = 'x';
    show("range", c >= 'a' && c <= 'z');
    return 0;
}
