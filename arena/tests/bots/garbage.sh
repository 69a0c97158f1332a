#!/bin/sh
# Test bot that answers with a 200 kB line first, then nonsense: both are faults.
n=0
while read -r a b rest; do
    if [ "$a $b" = "action move" ]; then
        n=$((n + 1))
        if [ $n -eq 1 ]; then
            head -c 200000 /dev/zero | tr '\0' x
            echo
        else
            echo "place_move banana"
        fi
    fi
done
