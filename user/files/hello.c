/* hello.c: the first program. Compile and run it with
 *     cc hello.c -o hello
 *     hello
 */
int puts(char *s)
{
    while (*s)
        putchar(*s++);
    putchar('\n');
    return 0;
}

int main()
{
    puts("hello, world");
    return 0;
}
