#!/usr/bin/env bash
# The bot in CodinGame mode as one Rust file to paste into CodinGame's editor, checked to
# compile with plain rustc as CodinGame does. One file per game: CodinGame's Ultimate
# Tic-Tac-Toe (uttt, the default: the value network's weights packed in, searched by UCT
# with minimax backups of its values, as the bot plays under CodinGame's protocol), MCTS
# with play-outs alone and no weights (uttt-playout), or Tron Battle (tron).
#
#   scripts/codingame_bundle.sh [uttt|uttt-playout|tron] [OUT_FILE]
#       (default OUT_FILE: target/codingame/mctsbot_codingame.rs,
#        target/codingame/mctsbot_codingame_playout.rs for uttt-playout, or
#        target/codingame/mctsbot_tron_battle.rs for tron)
#
# The file is made by `cg-bundle` (arena/src/bundle.rs): the modules the game's CodinGame
# player needs, comments and tests stripped, small stand-ins for the crates. It fails if
# the file is over CodinGame's 100,000 characters.
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
game=uttt
flags=()
default=$root/target/codingame/mctsbot_codingame.rs
case "${1:-}" in
uttt) shift ;;
uttt-playout)
    flags=(--uttt-eval playout)
    default=$root/target/codingame/mctsbot_codingame_playout.rs
    shift
    ;;
tron)
    game=tron
    default=$root/target/codingame/mctsbot_tron_battle.rs
    shift
    ;;
esac
out=${1:-$default}
mkdir -p "$(dirname "$out")"
(cd "$root" && cargo run -q --release -p arena --bin cg-bundle -- --game "$game" "${flags[@]}" --out "$out")
rustc -O --edition 2021 -o "${out%.rs}" "$out"
echo "$out: $(wc -m <"$out") characters; compiled with: rustc -O --edition 2021 -o ${out%.rs} $out"
