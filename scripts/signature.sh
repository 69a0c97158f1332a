#!/usr/bin/env bash
# The search signature: fixed-iteration benches of both games over many option sets,
# with the timing fields removed. Searches are seeded, so two builds that search the
# same way print the same lines; a refactoring must leave this output unchanged. Tron
# lines name their cut-off, so a change of the defaults leaves them as they are.
#
#   scripts/signature.sh [MCTSBOT] > before.txt   # ... change the code, rebuild ...
#   scripts/signature.sh [MCTSBOT] | diff before.txt -
# CI (.ci/run) diffs it against scripts/signature.expected, this script's output for the
# committed code; a change meant to alter play writes the file again.
set -euo pipefail
bot=${1:-target/release/mctsbot}

run() {
    echo "# $*"
    "$bot" bench --seed 7 "$@" | sed -E 's/, "(ms|iterations_per_sec|playouts_per_sec|nodes_per_sec)": [0-9]+//g'
}

for flags in "" "--final robust" "--no-solver" "--c 1.0 --expand-visits 2" "--end-rule boards"; do
    # shellcheck disable=SC2086
    run --game uttt --iterations 20000 $flags
done
for variant in suct suct-tuned duct-max duct-mix ducb1t-max ducb1t-mix exp3 rm; do
    for flags in "" "--tron-playout random" "--tron-cutoff voronoi" \
        "--tron-cutoff chambers" "--tron-separation 5" "--tron-expand-visits 1" "--tron-pes" \
        "--tron-cutoff space" "--tron-cutoff space --tron-cutoff-steps 4"; do
        # shellcheck disable=SC2086
        run --game tron --iterations 3000 --tron-variant "$variant" --tron-cutoff none $flags
    done
done
# Seed 000's and seed 004's learned play-outs and selections (the tables' setting).
for flags in "--tron-playout ngram" "--tron-playout lgr" "--tron-playout lgrf" \
    "--tron-playout ngram-lgr" "--tron-playout ngram --tron-ngram-extraction sequential" \
    "--tron-playout ngram --tron-selection ulm" "--tron-playout ngram --tron-selection pb" \
    "--tron-selection lean-lgrf"; do
    # shellcheck disable=SC2086
    run --game tron --iterations 3000 --tron-variant suct --tron-cutoff none $flags
done
for flags in "--tron-final mix" "--tron-final secure" "--tron-final max"; do
    # shellcheck disable=SC2086
    run --game tron --iterations 3000 --tron-variant duct-mix --tron-cutoff none $flags
done
# CodinGame's Tron Battle player: alpha-beta over the paranoid view, 2 to 4 riders.
run --game tron-battle --iterations 20000
# The evaluations beside the MCTS: UTTT alpha-beta (Liang 2017's evaluations and
# weights), the value network and its blend, early play-out termination, and Light
# Riders' alpha-beta.
for flags in "--uttt-search alphabeta" "--uttt-search alphabeta --eval simple" \
    "--uttt-search alphabeta --eval-weights 1,2,3,4,5,6,7,8,9,10,11,12,13,14" \
    "--uttt-eval nn" "--uttt-eval blend:0.5" "--ept 50,0.7" "--ept 50,0.7 --eval advanced"; do
    # shellcheck disable=SC2086
    run --game uttt --iterations 20000 $flags
done
run --game tron --iterations 3000 --tron-search alphabeta
