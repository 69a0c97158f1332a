#!/usr/bin/env bash
# Regenerates Liang 2017's UTTT tables (seed 001) in the arena, one series per cell,
# colours alternated, every pair of games from a line of protocol/openings/uttt_balanced.txt
# (fixed-depth alpha-beta is deterministic: the seed varied its games by seeding them).
#
#   scripts/uttt_seed_tables.sh OUT_DIR [GAMES_PER_CELL] [TABLES] [arena options...]
#
# TABLES is a comma-separated subset of 2.8,3.4,4.3,4.4,4.5,4.6,4.7 (default: all). The control
# is the arena's 10000/500 unless the arena options say otherwise (docs/uttt_seed_tables.md
# used --timebank 2000 --time-per-move 100). Each cell prints the arena's table and adds a
# row to OUT_DIR/rows.md. Uses target/release/{mctsbot,arena}: build them first
# (cargo build --release --workspace); BIN=DIR takes them from elsewhere; UCT_C="0.3 0.5"
# narrows Table 4.3, RAVE_R="0.1 1" Table 4.4.
set -euo pipefail
out=${1:?usage: scripts/uttt_seed_tables.sh OUT_DIR [GAMES] [TABLES] [arena options...]}
games=${2:-100}
tables=${3:-2.8,3.4,4.3,4.4,4.5,4.6,4.7}
shift $(( $# >= 3 ? 3 : $# ))
extra=("$@")
bin=${BIN:-target/release}
mkdir -p "$out"

# The thesis's MCTS values leaves by random play-outs (the bot's engine default is the
# network blend).
seed_leaves="--uttt-eval playout"

wants() { [[ ",$tables," == *",$1,"* ]]; }

# cell TABLE NAME "FLAGS A" "FLAGS B": one series, A's W/D/L and score into rows.md.
cell() {
    local table=$1 name=$2 flags_a=$3 flags_b=$4 dir="$out/$1-$2"
    "$bin/arena" --game uttt --games "$games" -j 2 --seed 11 --openings uttt_balanced \
        "${extra[@]}" --name-a "A" --name-b "B" --out "$dir" \
        -- "$bin/mctsbot --seed {seed} $seed_leaves $flags_a" "$bin/mctsbot --seed {seed} $seed_leaves $flags_b" |
        tee "$dir.txt"
    # The summary row: map games A draw B score ±95% Elo ±95% timeouts illegal ...
    awk -v t="$table" -v n="$name" '$1 == "uttt" {
        printf "| %s | %s | %s/%s/%s | %s %s | %s | %s |\n", t, n, $3, $4, $5, $6, $7, $10, $11
    }' "$dir.txt" >>"$out/rows.md"
}

minimax() { echo "--uttt-search alphabeta --eval $1 ${2:+--uttt-depth $2}"; }

if wants 2.8; then # the evaluations against each other: minimax 7 and iterative deepening
    for depth in 7 ""; do
        label=${depth:+minimax$depth}; label=${label:-iterative}
        cell 2.8 "$label-connecting-vs-simple" "$(minimax connecting $depth)" "$(minimax simple $depth)"
        cell 2.8 "$label-advanced-vs-connecting" "$(minimax advanced $depth)" "$(minimax connecting $depth)"
        cell 2.8 "$label-comprehensive-vs-advanced" "$(minimax comprehensive $depth)" "$(minimax advanced $depth)"
    done
fi
if wants 3.4; then # play-outs: MCTS UCT with random play-outs against the others
    cell 3.4 "random-vs-win-first" "" "--playout win-first"
    cell 3.4 "random-vs-ept-comprehensive" "" "--ept 50,0.7 --eval comprehensive"
fi
if wants 4.3; then # the UCT constant against minimax 7 (advanced)
    for c in ${UCT_C:-0.3 0.4 0.5 0.6 0.7 0.8 0.9}; do
        cell 4.3 "uct-c$c-vs-minimax7-advanced" "--c $c" "$(minimax advanced 7)"
    done
fi
if wants 4.4; then # the RAVE constant (win-first play-outs) against minimax 7 (advanced)
    for r in ${RAVE_R:-0.00001 0.0001 0.001 0.01 0.1 1 2}; do
        cell 4.4 "rave$r-win-first-vs-minimax7-advanced" "--rave $r --playout win-first" \
            "$(minimax advanced 7)"
    done
fi
if wants 4.5; then # search depth: minimax d+1 against d, then iterative deepening against 7
    for depth in 1 2 3 4 5 6; do
        cell 4.5 "minimax$((depth + 1))-vs-minimax$depth" "$(minimax comprehensive $((depth + 1)))" \
            "$(minimax comprehensive $depth)"
    done
    cell 4.5 "iterative-vs-minimax7" "$(minimax comprehensive)" "$(minimax comprehensive 7)"
fi
if wants 4.6; then # MCTS variants: plain UCT against RAVE (random play-outs)
    cell 4.6 "uct-random-vs-rave-random" "" "--rave 0.1"
fi
if wants 4.7; then # the best MCTS against the best minimax
    cell 4.7 "uct-random-vs-minimax7-comprehensive" "" "$(minimax comprehensive 7)"
fi
echo "rows: $out/rows.md"
