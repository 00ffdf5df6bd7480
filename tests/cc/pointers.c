/* Pointers and arrays: arithmetic, differences, pointers to pointers,
 * arrays of arrays, & and *, arrays as parameters. */
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

void swap(int *a, int *b)
{
    int t = *a;
    *a = *b;
    *b = t;
}

long sum(int a[], int n)
{
    long s = 0;
    int *p;
    for (p = a; p < a + n; p++)
        s += *p;
    return s;
}

void fill(long *p, int n, long v)
{
    while (n-- > 0)
        *p++ = v++;
}

int grid[3][4];

int main()
{
    int a[10];
    int i, j;
    for (i = 0; i < 10; i++)
        a[i] = i * i;
    show("sum", sum(a, 10));
    show("a[3]", a[3]);
    show("*(a+4)", *(a + 4));
    show("4[a]", 4[a]);
    int *p = &a[2], *q = &a[9];
    show("diff", q - p);
    show("p[1]", p[1]);
    show("*--q", *--q);
    show("*q++", *q++);
    show("*q", *q);
    int x = 1, y = 2;
    swap(&x, &y);
    show("x", x);
    show("y", y);
    int *px = &x;
    int **ppx = &px;
    **ppx = 42;
    show("pp", x);
    long l[5];
    fill(l, 5, 100);
    show("l[4]", l[4]);
    show("sizeof a", sizeof a);
    show("sizeof l", sizeof l);
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++)
            grid[i][j] = i * 10 + j;
    show("grid", grid[2][3]);
    show("row", *grid[1]);
    show("sizeof grid", sizeof grid);
    show("sizeof row", sizeof grid[0]);
    int *cell = &grid[1][2];
    show("cell", cell[4]);
    char *cp = (char *)a;
    show("bytes", cp[4] + cp[8]);
    long *lp = 0;
    show("null", lp == 0);
    lp = l;
    lp += 3;
    show("lp+=", *lp);
    lp -= 2;
    show("lp-=", *lp);
    show("ptrcmp", &a[1] < &a[2]);
    return 0;
}
