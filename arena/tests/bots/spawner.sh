#!/bin/sh
# Test bot that leaves a child running (its pid goes to file $1), then plays like
# first_legal.sh: the arena must kill the child with the bot's process group.
sleep 300 &
echo $! >"$1"
exec sh "$(dirname "$0")/first_legal.sh"
