/* true: exit 0 at once. The smallest program there is to exec: lat's
 * forkexec times fork + exec of it + exit + wait (the shell's builtin
 * `true` shadows it at the prompt; /true runs this one). */
int main(void)
{
    return 0;
}
