#!/bin/bash
# One arena series split into shards run by GNU parallel, on this machine or on remote
# hosts, then merged into one table and results.json.
#
#   scripts/sharded.sh [-n SHARDS] [-j JOBS] [-S SSHLOGINFILE] [-o OUT] -- ARENA_OPTIONS
#
# Every shard is `target/release/arena --shard K/N --out OUT/shardK ARENA_OPTIONS`; the
# shards play disjoint pairs of the same schedule (boards, colours, seeds), so the merge
# in OUT/merged is the series the options describe. Give --seed in ARENA_OPTIONS: without
# it each shard would draw its own. -j is the number of shards run at once on each host
# (GNU parallel's -j), and each shard runs its own games with the arena's -j in
# ARENA_OPTIONS. With -S, GNU parallel starts the shards over ssh on the hosts of
# SSHLOGINFILE (its --sshloginfile format, e.g. "4/user@host"). Every host needs the
# project at the same path, built, and OUT on a shared file system (or use parallel's
# --return to bring the folders back).
#
# The arena binary is $ARENA if set, else target/release/arena.
#
# Example (4 shards, 2 at a time here, 1 game at a time in each):
#   scripts/sharded.sh -n 4 -j 2 -o out/c05 -- --game uttt --games 200 --seed 7 -j 1 \
#       --timebank 2000 --time-per-move 100 \
#       -- "target/release/mctsbot --seed {seed}" "target/release/mctsbot --seed {seed} --c 0.3"
set -eu
shards=4
jobs=1
login=""
out=out/sharded
while [ $# -gt 0 ]; do
    case "$1" in
        -n) shards=$2; shift 2 ;;
        -j) jobs=$2; shift 2 ;;
        -S) login=$2; shift 2 ;;
        -o) out=$2; shift 2 ;;
        --) shift; break ;;
        *) echo "sharded.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
arena=${ARENA:-$root/target/release/arena}
mkdir -p "$out"
out=$(cd "$out" && pwd)
if command -v parallel >/dev/null; then
    remote=()
    [ -n "$login" ] && remote=(--sshloginfile "$login" --workdir "$root")
    # -q passes every option and bot command to the arena as one argument, quotes and
    # all; {} is the shard number (the bots' {seed} and {game} are left to the arena).
    # The shards' progress lines come through on stderr; their tables are dropped, the
    # merge prints the series'.
    parallel -q --halt now,fail=1 -j "$jobs" "${remote[@]}" --line-buffer \
        "$arena" --shard "{}/$shards" --out "$out/shard{}" "$@" \
        ::: $(seq 1 "$shards") >/dev/null
elif [ -z "$login" ]; then
    # Without GNU parallel, local shards only: xargs runs JOBS at once.
    echo "sharded.sh: GNU parallel not found, running the shards with xargs -P $jobs" >&2
    seq 1 "$shards" | xargs -P "$jobs" -I{} \
        "$arena" --shard "{}/$shards" --out "$out/shard{}" "$@" >/dev/null
else
    echo "sharded.sh: -S needs GNU parallel (apt install parallel)" >&2
    exit 2
fi
"$arena" merge --out "$out/merged" $(seq -f "$out/shard%g" 1 "$shards")
