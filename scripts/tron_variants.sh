#!/usr/bin/env bash
# Every Light Riders variant against sequential UCT, on the empty 16x16 board (riddles
# starts) and on 13x13 maps, colours swapped; then the default against the wall-hugger.
#   scripts/tron_variants.sh OUT_DIR [GAMES_PER_SERIES] [extra arena options...]
# Uses target/release/{mctsbot,arena}: build them first (cargo build --release --workspace).
set -euo pipefail
out=${1:?usage: scripts/tron_variants.sh OUT_DIR [GAMES] [arena options...]}
games=${2:-20}
shift $(( $# >= 2 ? 2 : 1 ))
extra=("$@")
bin=${BIN:-target/release}
mkdir -p "$out"
series() { # name, bot A flags, bot B command
    local name=$1 flags_a=$2 cmd_b=$3
    for board in 16 13; do
        local boards=() ; [ "$board" = 13 ] && boards=(--map empty13,pillars13)
        "$bin/arena" --game tron --games "$games" -j 1 --seed 11 "${boards[@]}" "${extra[@]}" \
            --name-a "$name" --name-b "${cmd_b##*/}" --out "$out/$name-$board" \
            -- "$bin/mctsbot --seed {seed} $flags_a" "$cmd_b" | tee "$out/$name-$board.txt"
    done
}
suct="$bin/mctsbot --seed {seed} --tron-variant suct"
for variant in suct-tuned duct-max duct-mix ducb1t-max ducb1t-mix exp3 rm; do
    series "$variant" "--tron-variant $variant" "$suct"
done
series default "" "python3 scripts/wallhugger.py"
