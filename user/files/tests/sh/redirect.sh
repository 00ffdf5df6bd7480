# Output to files: > >> 2> 2>> 2>&1, and time's report appended to a log.
echo first > out.txt
echo second >> out.txt
cat out.txt
cat nosuchfile 2> err.txt
echo "status $?"
cat nosuchfile 2>> err.txt
cat err.txt
cat nosuchfile > both.txt 2>&1
cat both.txt
time echo timed > /dev/null 2>> time.log
time ls /README > /dev/null 2>> time.log
cat time.log
for i in 1 2 3; do echo "line $i"; done > loop.txt
cat loop.txt
