#!/bin/sh
# Regenerates the shipped balanced UTTT opening suite, protocol/openings/uttt_balanced.txt:
# random lines of 2 to 4 plies, kept when one second of the bot's own MCTS values them
# within 0.03 of even, 40 of them (about two minutes on one core). Options after the
# script's name go to `arena openings` (e.g. --ms 3000 for a longer search).
set -eu
cd "$(dirname "$0")/.."
cargo build --release -p arena
target/release/arena openings --plies 2..4 --count 40 --ms 1000 --within 0.03 --seed 1 "$@" \
    > protocol/openings/uttt_balanced.txt
wc -l protocol/openings/uttt_balanced.txt
