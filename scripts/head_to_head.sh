#!/usr/bin/env bash
# Head-to-head: build mctsbot at two git revisions (or the working tree) and play an arena
# series between them, with optional extra flags on each side; prints the arena's table.
#
#   scripts/head_to_head.sh [--rev-a REV] [--rev-b REV] [--flags-a "FLAGS"] [--flags-b "FLAGS"]
#                           [--game uttt|tron] [--profile release|dev] [-- ARENA OPTIONS...]
#
# Examples:
#   scripts/head_to_head.sh --rev-b HEAD~3 -- --games 40 --timebank 2000
#   scripts/head_to_head.sh --flags-a "--c 0.7" --flags-b "--c 0.5" -- --games 20 --out h2h
#   scripts/head_to_head.sh --game tron --flags-a "--tron-variant duct-max" -- --map rooms16,pillars13
#
# A revision is built once (in a temporary `git worktree`) and kept in $H2H_CACHE (default
# target/h2h); no revision means the working tree. FLAGS are passed to mctsbot as they are (word-split),
# after `--game G --seed {seed}` (the arena puts a per-game seed into {seed}).
set -euo pipefail

usage() { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cache=${H2H_CACHE:-$root/target/h2h}
rev_a="" rev_b="" flags_a="" flags_b="" game=uttt profile=release
while [ $# -gt 0 ]; do
    case $1 in
    --rev-a) rev_a=$2; shift 2 ;;
    --rev-b) rev_b=$2; shift 2 ;;
    --flags-a) flags_a=$2; shift 2 ;;
    --flags-b) flags_b=$2; shift 2 ;;
    --game) game=$2; shift 2 ;;
    --profile) profile=$2; shift 2 ;;
    -h | --help) usage 0 ;;
    --) shift; break ;;
    *) echo "head_to_head: unknown option $1" >&2; usage 2 >&2 ;;
    esac
done
case $profile in release) outdir=release ;; dev) outdir=debug ;; *) outdir=$profile ;; esac
mkdir -p "$cache"

# Builds mctsbot for a revision (empty = working tree) and copies it into the cache (the
# shared target folder keeps dependencies compiled once); prints the copy's path.
target=${CARGO_TARGET_DIR:-$root/target}
build() {
    local rev=$1 sha src
    if [ -z "$rev" ]; then
        (cd "$root" && cargo build -q --profile "$profile" --bin mctsbot >&2)
        cp "$target/$outdir/mctsbot" "$cache/mctsbot-worktree-$profile-$$"
        echo "$cache/mctsbot-worktree-$profile-$$"
        return
    fi
    sha=$(git -C "$root" rev-parse --verify "$rev^{commit}")
    if [ ! -x "$cache/mctsbot-$sha-$profile" ]; then
        src=$cache/src-$sha
        [ -d "$src" ] || git -C "$root" worktree add -q --detach "$src" "$sha" >&2
        (cd "$src" && CARGO_TARGET_DIR=$target cargo build -q --profile "$profile" --bin mctsbot >&2)
        cp "$target/$outdir/mctsbot" "$cache/mctsbot-$sha-$profile"
        git -C "$root" worktree remove --force "$src" >&2 || true
    fi
    echo "$cache/mctsbot-$sha-$profile"
}

echo "building A (${rev_a:-working tree}) and B (${rev_b:-working tree}) ..." >&2
bin_a=$(build "$rev_a")
bin_b=$(build "$rev_b")
(cd "$root" && cargo build -q --profile "$profile" -p arena >&2)
arena=$target/$outdir/arena

label_a="${rev_a:-worktree}${flags_a:+ $flags_a}"
label_b="${rev_b:-worktree}${flags_b:+ $flags_b}"
trap 'rm -f "$cache/mctsbot-worktree-$profile-$$"' EXIT
"$arena" --game "$game" --name-a "$label_a" --name-b "$label_b" "$@" -- \
    "$bin_a --game $game --seed {seed} $flags_a" \
    "$bin_b --game $game --seed {seed} $flags_b"
