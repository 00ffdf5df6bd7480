# A loop never closed.
echo start
while true; do
    echo body
