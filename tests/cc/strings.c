/* Strings and characters: literals with escapes, string functions
 * written here, char arrays, arrays of strings. */
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

int length(char *s)
{
    int n = 0;
    while (s[n])
        n++;
    return n;
}

char *copy(char *dst, char *src)
{
    char *d = dst;
    while ((*d++ = *src++) != 0)
        ;
    return dst;
}

int compare(char *a, char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a - *b;
}

void reverse(char *s)
{
    char *e = s + length(s) - 1;
    while (s < e) {
        char t = *s;
        *s++ = *e;
        *e-- = t;
    }
}

char greeting[] = "hello";
char *words[] = { "alpha", "beta", "gamma", "delta" };
char table[8] = "abc";

int main()
{
    char buf[32];
    show("len", length("twelve chars"));
    show("sizeof lit", sizeof "four");
    show("sizeof greeting", sizeof greeting);
    prints(copy(buf, greeting));
    putchar('\n');
    reverse(buf);
    prints(buf);
    putchar('\n');
    show("cmp", compare("abc", "abd") < 0);
    show("cmp2", compare("same", "same"));
    int i;
    for (i = 0; i < 4; i++) {
        prints(words[i]);
        putchar(i < 3 ? ',' : '\n');
    }
    prints("tab\there, quote \" backslash \\ done\n");
    show("esc", '\t' + '\r' + '\a' + '\b' + '\f' + '\v' + '\'' + '\"' + '\?');
    show("octal", "\101\102"[1]);
    show("hex", "\x41\x7e"[1]);
    show("high", "\377"[0]);
    show("table", table[1] + table[3] + table[7]);
    prints("concat" "enated\n");
    char local[] = "local";
    local[0] = 'L';
    prints(local);
    putchar('\n');
    show("sizeof local", sizeof local);
    char *p = "pointer";
    show("p[3]", p[3]);
    show("upper", 'a' - 'A');
    return 0;
}
