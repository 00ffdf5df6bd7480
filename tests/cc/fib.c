/* Recursion: Fibonacci, factorial in long, Ackermann, mutual recursion. */
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

int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

long fact(int n)
{
    if (n <= 1)
        return 1;
    return n * fact(n - 1);
}

int ack(int m, int n)
{
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

int is_odd(int n);
int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }

int main()
{
    int i;
    for (i = 0; i <= 20; i += 5)
        show("fib", fib(i));
    show("fact 20", fact(20));
    show("ack 2 3", ack(2, 3));
    show("ack 3 3", ack(3, 3));
    show("even 10", is_even(10));
    show("odd 7", is_odd(7));
    return 0;
}
