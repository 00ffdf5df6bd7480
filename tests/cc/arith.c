/* Arithmetic: precedence, int/long/char conversions, division and
 * remainder with signs, shifts, bit operations, compound assignment. */
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
    int a = 7, b = -3;
    long big = 3000000000L;
    char c = 200;
    show("prec", 2 + 3 * 4 - 10 / 3 % 2);
    show("paren", (2 + 3) * (4 - 10) / 3);
    show("div", a / b);
    show("mod", a % b);
    show("negdiv", -a / 2);
    show("negmod", -a % 2);
    show("shl", 1 << 20);
    show("shr", -64 >> 3);
    show("lshl", 1L << 40);
    show("and", 0x5a & 0x0f);
    show("or", 0x50 | 0x0a);
    show("xor", 0xff ^ 0x0f);
    show("not", ~5);
    show("neg", -a);
    show("unary+", +b);
    show("long", big * 3);
    show("longdiv", big / 7);
    show("mixed", a + big);
    show("char", c);
    show("charadd", c + 100);
    c = c + 100;
    show("charwrap", c);
    show("intwrap", (int)5000000000L);
    show("tochar", (char)300);
    show("tolong", (long)b * 1000000000);
    int x = 10;
    x += 5;
    show("+=", x);
    x -= 3;
    show("-=", x);
    x *= 4;
    show("*=", x);
    x /= 5;
    show("/=", x);
    x %= 5;
    show("%=", x);
    x <<= 4;
    show("<<=", x);
    x >>= 2;
    show(">>=", x);
    x |= 0x100;
    show("|=", x);
    x &= 0x1f0;
    show("&=", x);
    x ^= 0xff;
    show("^=", x);
    show("sizeof int", sizeof(int));
    show("sizeof long", sizeof(long));
    show("sizeof char", sizeof(char));
    show("sizeof ptr", sizeof(char *));
    show("sizeof expr", sizeof x);
    show("hex", 0x7fffffff);
    show("octal", 0777);
    show("charlit", 'A' + '\n' + '\0' + '\\' + '\x41' + '\101');
    show("big", 0x123456789abcdefL);
    show("bigneg", -0x123456789abcdefL);
    show("cmp", (a > b) + (a < b) * 2 + (a >= 7) * 4 + (b <= -4) * 8 + (a == 7) * 16 + (b != -3) * 32);
    return 0;
}
