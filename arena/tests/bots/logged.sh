#!/bin/sh
# Wraps another test bot (tests/bots/$1.sh, given the rest of the arguments) and logs on
# stderr as our bot does: one `move=K value=V` line per request, the values
# 0.6 0.7 0.65 0.3 0.35 0.4 and then 0.4 again, so they fall most at the 4th request.
dir=$(dirname "$0")
bot=$1
shift
k=0
while IFS= read -r line; do
    printf '%s\n' "$line"
    case $line in
    "action move"*)
        k=$((k + 1))
        case $k in
        1) v=0.6 ;; 2) v=0.7 ;; 3) v=0.65 ;; 4) v=0.3 ;; 5) v=0.35 ;; *) v=0.4 ;;
        esac
        echo "[INFO  test] move=$k value=$v" >&2
        ;;
    esac
done | sh "$dir/$bot.sh" "$@"
