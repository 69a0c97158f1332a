#!/usr/bin/env bash
# Parameter sweep: plays mctsbot with FLAG set to each value against a fixed baseline and
# prints one arena table per value (A = the value, B = the baseline).
#
#   scripts/sweep.sh --flag NAME --values "V1 V2 ..." [--baseline "FLAGS"] [--rev REV]
#                    [--game uttt|tron] [--profile release|dev] [-- ARENA OPTIONS...]
#
# Examples:
#   scripts/sweep.sh --flag --c --values "0.3 0.5 0.7 1.0" -- --games 40 --timebank 2000
#   scripts/sweep.sh --game tron --flag --tron-cutoff --values "10 20 40" \
#                    --baseline "--tron-variant duct-max" -- --games 20 --map rooms16
#
# The baseline FLAGS go to both sides (the swept side gets FLAG VALUE after them); both use
# the same build of REV (default: the working tree). With --out DIR in the arena options,
# each value writes DIR/VALUE/.
set -euo pipefail

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }

here=$(dirname "$0")
flag="" values="" baseline="" rev="" game=uttt profile=release
while [ $# -gt 0 ]; do
    case $1 in
    --flag) flag=$2; shift 2 ;;
    --values) values=$2; shift 2 ;;
    --baseline) baseline=$2; shift 2 ;;
    --rev) rev=$2; shift 2 ;;
    --game) game=$2; shift 2 ;;
    --profile) profile=$2; shift 2 ;;
    -h | --help) usage 0 ;;
    --) shift; break ;;
    *) echo "sweep: unknown option $1" >&2; usage 2 >&2 ;;
    esac
done
[ -n "$flag" ] && [ -n "$values" ] || { echo "sweep: --flag and --values are required" >&2; usage 2 >&2; }

# Arena options, with --out DIR turned into --out DIR/VALUE per value.
arena_opts=("$@")
for value in $values; do
    opts=()
    i=0
    while [ $i -lt ${#arena_opts[@]} ]; do
        o=${arena_opts[$i]}
        if [ "$o" = --out ] && [ $((i + 1)) -lt ${#arena_opts[@]} ]; then
            opts+=(--out "${arena_opts[$((i + 1))]}/$value")
            i=$((i + 2))
            continue
        fi
        opts+=("$o")
        i=$((i + 1))
    done
    echo "== $flag $value vs baseline${baseline:+ ($baseline)}"
    "$here/head_to_head.sh" ${rev:+--rev-a "$rev" --rev-b "$rev"} --game "$game" --profile "$profile" \
        --flags-a "${baseline:+$baseline }$flag $value" --flags-b "$baseline" -- "${opts[@]}"
    echo
done
