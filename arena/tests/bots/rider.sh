#!/bin/sh
# Light Riders test bot: moves to the first free neighbour in the order up, right,
# down, left (or "up" into a wall when boxed in; with the argument quiet-boxed, no answer
# when boxed in, as some bots do).
quiet_boxed=$1
id=0
w=16
field=
while read -r a b c d; do
    case "$a $b" in
    "settings your_botid") id=$c ;;
    "settings field_width") w=$c ;;
    "update game") [ "$c" = field ] && field=$d ;;
    "action move")
        oldifs=$IFS
        IFS=,
        # shellcheck disable=SC2086
        set -- $field
        IFS=$oldifs
        n=$#
        i=0
        me=0
        for v in "$@"; do
            eval "f$i=\$v"
            [ "$v" = "$id" ] && me=$i
            i=$((i + 1))
        done
        x=$((me % w))
        y=$((me / w))
        h=$((n / w))
        ans=up
        found=
        for dir in up right down left; do
            case $dir in
            up) nx=$x ny=$((y - 1)) ;;
            right) nx=$((x + 1)) ny=$y ;;
            down) nx=$x ny=$((y + 1)) ;;
            left) nx=$((x - 1)) ny=$y ;;
            esac
            if [ $nx -ge 0 ] && [ $nx -lt "$w" ] && [ $ny -ge 0 ] && [ $ny -lt $h ]; then
                eval "v=\$f$((ny * w + nx))"
                if [ "$v" = . ]; then
                    ans=$dir
                    found=1
                    break
                fi
            fi
        done
        if [ -z "$found" ] && [ "$quiet_boxed" = quiet-boxed ]; then
            continue
        fi
        echo "$ans"
        ;;
    esac
done
