#!/usr/bin/env bash
# The bot in CodinGame mode (Ultimate Tic-Tac-Toe) as one Rust file to paste into
# CodinGame's editor, checked to compile with plain rustc as CodinGame does.
#
#   scripts/codingame_bundle.sh [OUT_FILE]     (default target/codingame/mctsbot_codingame.rs)
#
# The file is made by `cg-bundle` (arena/src/bundle.rs): the modules the CodinGame player
# needs, comments and tests stripped, small stand-ins for the crates. It fails if the file
# is over CodinGame's 100,000 characters.
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
out=${1:-$root/target/codingame/mctsbot_codingame.rs}
mkdir -p "$(dirname "$out")"
(cd "$root" && cargo run -q --release -p arena --bin cg-bundle -- --out "$out")
rustc -O --edition 2021 -o "${out%.rs}" "$out"
echo "$out: $(wc -c <"$out") bytes; compiled with: rustc -O --edition 2021 -o ${out%.rs} $out"
