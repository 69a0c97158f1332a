#!/usr/bin/env bash
# Seed 000's play-out and selection tables (N-Grams, Last-Good-Reply, UCT-ULM, Progressive
# Bias) and seed 004's lean-LGRF regenerated in the arena:
# sequential UCT with whole play-outs (no cut-off) on 13x13 maps (or MAPS, below), colours swapped.
#   scripts/tron_playout_tables.sh OUT_DIR [GAMES_PER_CELL] [extra arena options...]
# The seed played 1 s a move; the default here is a reduced 2000/50 control (state it).
# Later --timebank / --time-per-move options replace it.
# MAPS="a,b" picks the maps (default empty13,pillars13); MAPS=random16 plays the riddles
# engine's empty 16x16 board with its random starts.
# Uses target/release/{mctsbot,arena}: build them first (cargo build --release --workspace).
set -euo pipefail
out=${1:?usage: scripts/tron_playout_tables.sh OUT_DIR [GAMES] [arena options...]}
games=${2:-200}
shift $(( $# >= 2 ? 2 : 1 ))
extra=("$@")
bin=${BIN:-target/release}
mkdir -p "$out"
base="--tron-variant suct --tron-cutoff none"
maps=${MAPS:-empty13,pillars13}
map_options=(--map "$maps")
if [[ $maps == random16 ]]; then map_options=(); fi
cell() { # name, bot A flags, bot B flags, [this cell's own arena options...]
    local name=$1 flags_a=$2 flags_b=$3
    shift 3
    # CELLS="name1 name2" runs only those cells.
    if [[ -n ${CELLS:-} && " $CELLS " != *" $name "* ]]; then return; fi
    "$bin/arena" --game tron --games "$games" -j 1 --seed 11 "${map_options[@]}" \
        --timebank 2000 --time-per-move 50 "$@" "${extra[@]}" \
        --name-a "${name%%-vs-*}" --name-b "${name##*-vs-}" --out "$out/$name" \
        -- "$bin/mctsbot --seed {seed} $base $flags_a" "$bin/mctsbot --seed {seed} $base $flags_b" \
        | tee "$out/$name.txt"
}
# Table 1: the epsilon sweep, N-Gram against random play-outs.
for epsilon in 0.1 0.3 0.5; do
    cell "ngram$epsilon-vs-random" "--tron-playout ngram --tron-epsilon $epsilon" "--tron-playout random"
done
# Table 2: the N-Grams' sequential extraction against random play-outs (Table 3, the
# simultaneous one, is ngram0.3-vs-random).
cell "ngram-sequential-vs-random" "--tron-playout ngram --tron-ngram-extraction sequential" \
    "--tron-playout random"
# Tables 4-6: N-Gram, LGR against random; LGR against N-Gram.
cell "lgr-vs-random" "--tron-playout lgr" "--tron-playout random"
cell "lgr-vs-ngram" "--tron-playout lgr" "--tron-playout ngram"
# Table 7: the same with twice the time a move (the seed: 2 s instead of 1). The refill is
# most of a move's budget once the first moves have spent the bank's surplus, so doubling
# it doubles the time (13x13: 66-70 ms a move, against 34-38 at 50).
cell "lgr2x-vs-ngram2x" "--tron-playout lgr" "--tron-playout ngram" --time-per-move 100
# Table 8: the combination against N-Gram and LGR; LGRF against LGR.
cell "ngram-lgr-vs-ngram" "--tron-playout ngram-lgr" "--tron-playout ngram"
cell "ngram-lgr-vs-lgr" "--tron-playout ngram-lgr" "--tron-playout lgr"
cell "lgrf-vs-lgr" "--tron-playout lgrf" "--tron-playout lgr"
# Our safe play-outs (random moves that avoid an immediate crash) against the learned ones.
cell "ngram-vs-safe" "--tron-playout ngram" "--tron-playout safe"
cell "lgr-vs-safe" "--tron-playout lgr" "--tron-playout safe"
# Tables 9-10: UCT-ULM and Progressive Bias selection against UCT, both with N-Gram play-outs.
cell "ulm-vs-uct" "--tron-playout ngram --tron-selection ulm" "--tron-playout ngram"
cell "pb-vs-uct" "--tron-playout ngram --tron-selection pb" "--tron-playout ngram"
# Seed 004: lean-LGRF ordering of untried moves against UCT, both with random play-outs.
cell "lean-lgrf-vs-uct" "--tron-playout random --tron-selection lean-lgrf" "--tron-playout random"
# Tables 11-13: MCTS-Solver (on in every cell) with and without the seed's cut-off, which ends
# a play-out, and finishes a node, once the game's winner is known. Ours: a play-out stops
# when the riders are separated and is decided by their space (--tron-separation 1); the
# tree treats separated positions with a certain winner as finished (--tron-pes).
cutoff="--tron-separation 1 --tron-pes"
cell "solver-ngram-vs-solver" "--tron-playout ngram $cutoff" "--tron-playout random $cutoff"
cell "solver-nocut-vs-solver" "--tron-playout random" "--tron-playout random $cutoff"
cell "solver-ngram-nocut-vs-solver" "--tron-playout ngram" "--tron-playout random $cutoff"
