#!/usr/bin/env bash
# Soak and load: long arena series of the bot against itself, for timeouts, illegal
# answers, crashes and peak memory (the arena's table has them all, per side).
#
#   scripts/soak.sh [--game uttt|tron] [--games N] [--control "BANK PER_MOVE"]
#                   [--load] [--bot PATH] [--flags "FLAGS"] [-- ARENA OPTIONS...]
#
# --load pins bot A to core 0 together with a busy process (a shell loop), so that A
# gets about half a core while its clock runs in wall time; bot B gets core 1 alone.
# Defaults: uttt, 1000 games, the official controls (10000 500 for UTTT and 10000 200
# for Light Riders), target/release/mctsbot, 2 jobs for UTTT (one bot thinks at a time)
# and 1 for Light Riders (both riders think at once) or with --load.
#
# Examples:
#   scripts/soak.sh --game uttt --games 1000 --control "2000 100"
#   scripts/soak.sh --game tron --games 200 --control "1000 20" -- --out soak-tron
#   scripts/soak.sh --game uttt --games 100 --control "2000 100" --load
set -euo pipefail

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
game=uttt games=1000 control="" load=0 bot=$root/target/release/mctsbot flags=""
while [ $# -gt 0 ]; do
    case $1 in
    --game) game=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --control) control=$2; shift 2 ;;
    --load) load=1; shift ;;
    --bot) bot=$2; shift 2 ;;
    --flags) flags=$2; shift 2 ;;
    -h | --help) usage 0 ;;
    --) shift; break ;;
    *) echo "soak: unknown option $1" >&2; usage 2 >&2 ;;
    esac
done
if [ -z "$control" ]; then
    case $game in uttt) control="10000 500" ;; *) control="10000 200" ;; esac
fi
read -r bank per_move <<<"$control"
arena=$root/target/release/arena
[ -x "$arena" ] && [ -x "$bot" ] || (cd "$root" && cargo build --release --workspace)

bot_a="$bot --seed {seed} $flags" bot_b="$bot --seed {seed} $flags"
case $game in uttt) jobs=2 ;; *) jobs=1 ;; esac
if [ "$load" = 1 ]; then
    command -v taskset >/dev/null || { echo "soak: --load needs taskset" >&2; exit 2; }
    taskset -c 0 sh -c 'while :; do :; done' &
    busy=$!
    trap 'kill $busy' EXIT
    bot_a="taskset -c 0 $bot_a" bot_b="taskset -c 1 $bot_b" jobs=1
fi
echo "soak: $game, $games games at $bank/$per_move, load=$load" >&2
"$arena" --game "$game" --games "$games" -j "$jobs" --timebank "$bank" \
    --time-per-move "$per_move" --name-a A --name-b B "$@" -- "$bot_a" "$bot_b"
