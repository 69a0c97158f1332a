#!/bin/sh
# Test bot that reads everything and never answers: it must time out, not hang the arena.
while read -r line; do :; done
