#!/bin/sh
# CodinGame Tron Battle test bot: reads each turn (`N P`, then N rider lines) and
# answers the same direction, $1 (default UP). Optional $2: seconds to sleep before
# each answer.
answer=${1:-UP}
delay=${2:-}
while read -r riders _seat; do
    while [ "$riders" -gt 0 ]; do
        read -r _rider || exit 0
        riders=$((riders - 1))
    done
    [ -n "$delay" ] && sleep "$delay"
    echo "$answer"
done
