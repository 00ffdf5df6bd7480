# if, while, until, for, break, continue, nested loops, arithmetic.
for n in 1 2 3 4 5; do
    if [ $n -eq 1 ]; then
        echo "$n one"
    elif [ $n -le 3 ]
    then
        echo "$n small"
    else
        echo "$n big"
    fi
done
i=0
while [ $i -lt 3 ]; do echo "while $i"; i=$((i + 1)); done
until [ $i -eq 0 ]; do i=$((i - 1)); done
echo "until left $i"
total=0
for a in 1 2 3; do
    for b in 10 20 30; do
        if [ $b -eq 30 ]; then continue; fi
        if [ $a -eq 3 ]; then break 2; fi
        total=$((total + a * b))
    done
done
echo "nested total $total"
k=0
while true; do
    k=$((k + 1))
    if [ $k -ge 4 ]; then break; fi
done
echo "broke at $k"
echo arith $((7 / 2)) $((7 % 3)) $((-2 * 3 + 10)) $(( (1 + 2) * 3 )) $((3 > 2)) $((2 == 3))
if false; then echo no; fi
echo "if without else: $?"
for x in a b; do for y in 1 2; do echo "$x$y"; done; done
