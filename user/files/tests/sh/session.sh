# A user's session for the tests of who: three processes (this shell and
# two sleeps) until killed.
sleep 100000 &
sleep 100000
