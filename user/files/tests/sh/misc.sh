# Background jobs and wait, $( ), read, builtins with redirections, exit.
for i in 1 2 3; do echo "bg $i" >> bg.txt; done &
wait $!
echo "waited $?"
cat bg.txt
sh tests/sh/exit3.sh &
pid=$!
wait $pid
echo "exit3 gave $?"
n=$(cat bg.txt)
echo "captured [$n]"
words=$(echo a b c)
for w in $words; do echo "w=$w"; done
echo "nested $(echo "in $(echo deep)")"
echo "first line" > in.txt
echo "second  line  here" >> in.txt
read a b < in.txt
echo "a=$a b=$b"
help > help.txt
test -f help.txt && echo "help went to a file"
echo to-stderr >&2 2> /dev/null
echo "quiet" 2>&1 > /dev/null
if true; then
    exit 4
fi
echo "not reached"
