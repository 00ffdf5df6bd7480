# A stray fi on line 4: nothing after it runs.
echo before
if true; then echo inside; fi
fi
echo after
