#!/bin/sh
# Test bot that leaves a child holding its stdout (pid to file $1) and exits at once: no
# EOF ever comes, yet the arena must see the crash and kill the child.
sleep 300 &
echo $! >"$1"
exit 4
