/*
 * wordfreq.c: counts the words of a file and prints the most frequent.
 * This is the "small C program" of the compile benchmark: compile and run
 * it with
 *     cc wordfreq.c -o wordfreq
 *     wordfreq [-n COUNT] [FILE]
 * A word is a run of letters, digits and underscores, folded to lower
 * case; FILE is wordfreq.c itself if none is given. Words are kept in a
 * hash table with chains, their text in one pool of characters; the
 * table is sorted by count (then alphabetically) with quicksort.
 */
#define MAXWORDS  1024        /* distinct words */
#define POOLSIZE  16384       /* characters of all distinct words */
#define HASHSIZE  256         /* chains: a power of two */
#define MAXLEN    63          /* longer words are cut */
#define BUFSIZE   512

char pool[POOLSIZE];          /* the words, each ending with a NUL */
int pooltop;
int wordat[MAXWORDS];         /* where word i starts in pool */
int count[MAXWORDS];
int chain[MAXWORDS];          /* next word in the same chain, or -1 */
int head[HASHSIZE];
int nwords;
long total;

char buf[BUFSIZE];            /* input, a block at a time */
int buflen, bufpos;
int fd;

int getc_file()
{
    if (bufpos == buflen) {
        buflen = read(fd, buf, BUFSIZE);
        bufpos = 0;
        if (buflen <= 0)
            return -1;
    }
    return buf[bufpos++];
}

int isword(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

int lower(int c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A' + 'a';
    return c;
}

int compare(char *a, char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a - *b;
}

int hash(char *s)
{
    int h = 0;
    while (*s)
        h = (h * 31 + *s++) & 0x7fffffff;
    return h & (HASHSIZE - 1);
}

/* Counts one more of word w; returns 0, or -1 when the tables are full. */
int add(char *w)
{
    int h = hash(w);
    int i;
    for (i = head[h]; i >= 0; i = chain[i]) {
        if (compare(pool + wordat[i], w) == 0) {
            count[i]++;
            return 0;
        }
    }
    int len = 0;
    while (w[len])
        len++;
    if (nwords == MAXWORDS || pooltop + len + 1 > POOLSIZE)
        return -1;
    wordat[nwords] = pooltop;
    for (i = 0; i <= len; i++)
        pool[pooltop++] = w[i];
    count[nwords] = 1;
    chain[nwords] = head[h];
    head[h] = nwords;
    nwords++;
    return 0;
}

/* Does word a come before word b: more frequent first, then by spelling. */
int before(int a, int b)
{
    if (count[a] != count[b])
        return count[a] > count[b];
    return compare(pool + wordat[a], pool + wordat[b]) < 0;
}

int order[MAXWORDS];

void sort(int lo, int hi)
{
    while (lo < hi) {
        int pivot = order[(lo + hi) / 2];
        int i = lo, j = hi;
        while (i <= j) {
            while (before(order[i], pivot))
                i++;
            while (before(pivot, order[j]))
                j--;
            if (i <= j) {
                int t = order[i];
                order[i++] = order[j];
                order[j--] = t;
            }
        }
        /* Recurse into the smaller part, loop on the larger. */
        if (j - lo < hi - i) {
            sort(lo, j);
            lo = i;
        } else {
            sort(i, hi);
            hi = j;
        }
    }
}

void print(char *s)
{
    while (*s)
        putchar(*s++);
}

/* n in decimal, right-aligned in width columns. */
void printnum(long n, int width)
{
    char digits[24];
    int k = 0;
    if (n < 0) {
        putchar('-');
        n = -n;
        width--;
    }
    do {
        digits[k++] = '0' + n % 10;
        n /= 10;
    } while (n);
    while (width-- > k)
        putchar(' ');
    while (k > 0)
        putchar(digits[--k]);
}

int number(char *s)
{
    int n = 0;
    while (*s >= '0' && *s <= '9')
        n = n * 10 + *s++ - '0';
    return n;
}

int main(int argc, char **argv)
{
    char *file = "wordfreq.c";
    int top = 10;
    int i = 1;
    if (i + 1 < argc && compare(argv[i], "-n") == 0) {
        top = number(argv[i + 1]);
        i += 2;
    }
    if (i < argc)
        file = argv[i];
    fd = open(file, O_RDONLY);
    if (fd < 0) {
        print("wordfreq: cannot open ");
        print(file);
        putchar('\n');
        return 1;
    }
    for (i = 0; i < HASHSIZE; i++)
        head[i] = -1;

    char word[MAXLEN + 1];
    int len = 0, c;
    do {
        c = getc_file();
        if (isword(c)) {
            if (len < MAXLEN)
                word[len++] = lower(c);
        } else if (len > 0) {
            word[len] = 0;
            len = 0;
            total++;
            if (add(word) < 0) {
                print("wordfreq: too many words\n");
                return 1;
            }
        }
    } while (c >= 0);
    close(fd);

    for (i = 0; i < nwords; i++)
        order[i] = i;
    sort(0, nwords - 1);
    print(file);
    print(": ");
    printnum(total, 0);
    print(" words, ");
    printnum(nwords, 0);
    print(" different\n");
    for (i = 0; i < top && i < nwords; i++) {
        printnum(count[order[i]], 6);
        putchar(' ');
        print(pool + wordat[order[i]]);
        putchar('\n');
    }
    return 0;
}
