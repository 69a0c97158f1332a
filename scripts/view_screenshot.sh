#!/usr/bin/env bash
# A screenshot of a replay page (arena --out DIR writes DIR/view/game_NNNN.html) taken by
# headless Chromium, at a move of the game:
#
#   scripts/view_screenshot.sh PAGE OUT.png [MOVE]
#
# Needs Debian's chromium (apt-get install chromium; CHROMIUM names another binary).
# The browser test (arena/tests/arena_view.rs) takes its screenshots the same way.
set -euo pipefail
if [ $# -lt 2 ] || [ "$1" = "--help" ] || [ "$1" = "-h" ]; then
    sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
    [ $# -ge 2 ] || exit 2
    exit 0
fi
page=$(realpath "$1")
out=$2
move=${3:-0}
browser=${CHROMIUM:-chromium}
command -v "$browser" >/dev/null || { echo "view_screenshot.sh: $browser not found" >&2; exit 1; }
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --hide-scrollbars --window-size=1000,780 --virtual-time-budget=3000 \
    --user-data-dir="$profile" --screenshot="$out" "file://$page#move=$move" 2>/dev/null
[ -s "$out" ] || { echo "view_screenshot.sh: no screenshot written" >&2; exit 1; }
echo "$out"
