#!/bin/sh
# UTTT test bot: plays the first empty cell (row-major) in a playable micro board.
# Works in both dialects: a field with '.' cells is riddles.io (empty '.'), else
# TheAIGames (empty '0'). Optional $1: seconds to sleep before each answer.
delay=${1:-}
field=
macro=
while read -r a b c d; do
    case "$a $b $c" in
    "update game field") field=$d ;;
    "update game macroboard") macro=$d ;;
    "action move "*)
        [ -n "$delay" ] && sleep "$delay"
        case "$field" in *.*) empty=. ;; *) empty=0 ;; esac
        oldifs=$IFS
        IFS=,
        # shellcheck disable=SC2086
        set -- $macro
        i=0
        for m in "$@"; do eval "m$i=\$m"; i=$((i + 1)); done
        # shellcheck disable=SC2086
        set -- $field
        IFS=$oldifs
        i=0
        for v in "$@"; do
            if [ "$v" = "$empty" ]; then
                col=$((i % 9)); row=$((i / 9))
                eval "mb=\$m$(((row / 3) * 3 + col / 3))"
                if [ "$mb" = "-1" ]; then
                    echo "place_move $col $row"
                    break
                fi
            fi
            i=$((i + 1))
        done
        ;;
    esac
done
