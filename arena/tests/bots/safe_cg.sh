#!/bin/sh
# CodinGame Tron Battle test bot: remembers every cell a rider's head has been on (a
# rider moves once between two of our turns, so that is every trail; the trails of
# riders that are out stay blocked) and moves to the first free neighbour in the order
# of its arguments (default: UP RIGHT DOWN LEFT), or UP when boxed in.
order=${*:-UP RIGHT DOWN LEFT}
x=0
y=0
while read -r riders seat; do
    r=0
    while [ "$r" -lt "$riders" ]; do
        read -r x0 y0 x1 y1 || exit 0
        if [ "$x1" -ge 0 ]; then
            eval "c_${x0}_${y0}=1 c_${x1}_${y1}=1"
        fi
        if [ "$r" = "$seat" ]; then
            x=$x1
            y=$y1
        fi
        r=$((r + 1))
    done
    answer=UP
    for d in $order; do
        case $d in
        UP) nx=$x ny=$((y - 1)) ;;
        DOWN) nx=$x ny=$((y + 1)) ;;
        LEFT) nx=$((x - 1)) ny=$y ;;
        *) nx=$((x + 1)) ny=$y ;;
        esac
        [ "$nx" -ge 0 ] && [ "$nx" -lt 30 ] && [ "$ny" -ge 0 ] && [ "$ny" -lt 20 ] || continue
        eval "taken=\${c_${nx}_${ny}:-}"
        if [ -z "$taken" ]; then
            answer=$d
            break
        fi
    done
    echo "$answer"
done
