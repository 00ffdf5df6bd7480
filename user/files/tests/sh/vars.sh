# Variables, quoting and the script's arguments (tests/test_shell_script.py).
A=one
B=two C="three  spaced"
echo $A $B "$C"
echo ${A}x "${B}y" '$A stays' "\$A too"
echo "unset: [$NOSUCH]" unquoted: [$NOSUCH]
echo args $# "$1" "$2" all "$@"
for w in "$@"; do echo "arg <$w>"; done
for w in $*; do echo "word <$w>"; done
E=
echo "empty: [$E]" x$E$E"y"
L="a b  c"
for w in $L; do echo "split <$w>"; done
shift
echo after shift $# "$1"
echo pid-is-number $(($$ > 0))
echo zero $0
