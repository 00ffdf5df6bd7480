/* Globals: initialized and not, arrays with initializer lists, pointers
 * to strings, static declarations, shadowing by locals. */
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

int counter;
long total = 1000000000000L;
int primes[] = { 2, 3, 5, 7, 11, 13 };
int partial[10] = { 1, 2, 3 };
char letters[] = { 'x', 'y', 'z', 0 };
char *message = "global string";
static int hidden = 17;
int zeros[1000];
int *ptr = &counter;
int negative = -5;

static void bump() { counter++; }

int shadow = 1;

int main()
{
    int i;
    for (i = 0; i < 5; i++)
        bump();
    show("counter", counter);
    show("total", total + counter);
    long s = 0;
    for (i = 0; i < 6; i++)
        s += primes[i];
    show("primes", s);
    show("partial", partial[2] + partial[3] + partial[9]);
    prints(letters);
    putchar('\n');
    prints(message);
    putchar('\n');
    show("hidden", hidden);
    show("zeros", zeros[0] + zeros[999]);
    zeros[999] = 9;
    show("zeros", zeros[999]);
    *ptr = 99;
    show("ptr", counter);
    show("negative", negative);
    show("shadow", shadow);
    {
        int shadow = 2;
        show("inner", shadow);
        {
            int shadow = 3;
            show("innermost", shadow);
        }
        show("inner again", shadow);
    }
    show("outer", shadow);
    show("sizeof primes", sizeof primes);
    show("sizeof partial", sizeof partial);
    return 0;
}
