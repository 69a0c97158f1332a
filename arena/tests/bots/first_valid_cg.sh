#!/bin/sh
# CodinGame UTTT test bot: answers the first valid action of each turn.
# Optional $1: seconds to sleep before each answer.
delay=${1:-}
while read -r _opponent; do
    read -r count || exit 0
    first=
    while [ "$count" -gt 0 ]; do
        read -r action || exit 0
        [ -z "$first" ] && first=$action
        count=$((count - 1))
    done
    [ -n "$delay" ] && sleep "$delay"
    echo "$first"
done
