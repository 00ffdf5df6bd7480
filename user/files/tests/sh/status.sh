# $? after commands that succeed and fail, && || and !.
true
echo true $?
false
echo false $?
nosuchcommand
echo missing $?
cat nosuchfile
echo cat $?
test 3 -lt 2
echo test $?
! false
echo negated $?
true && echo and-ran
false && echo and-skipped
false || echo or-ran
true || echo or-skipped
[ -f /README ] && echo readme-is-a-file
[ -f /nosuchfile ] || echo no-such-file
