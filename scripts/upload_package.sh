#!/usr/bin/env bash
# The bot as a zip for competition servers that build from source without network access
# (TheAIGames / riddles.io style): a standalone crate, its dependencies vendored.
#
#   scripts/upload_package.sh [--out DIR]
#       writes DIR/mctsbot-VERSION.zip (default DIR: target/upload), VERSION being the
#       package version in Cargo.toml
#
# The zip holds, at its root: Cargo.toml (the root manifest without [workspace],
# [dev-dependencies] and [profile.test]: the server builds the bot alone and runs no
# tests), Cargo.lock (the workspace's lock pruned to the bot's dependencies, same
# versions), src/ (the networks' nn_weights*.bin included), vendor/ (`cargo vendor`), .cargo/config.toml
# (the source replacement that points crates.io at vendor/) and UPLOAD.txt. It builds with
#   cargo build --release --offline --locked
# (arena/tests/arena_upload.rs checks that, with an empty CARGO_HOME, and plays a game).
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
}

root=$(cd "$(dirname "$0")/.." && pwd)
out_dir=$root/target/upload
while [ $# -gt 0 ]; do
    case "$1" in
    -h | --help)
        usage
        exit 0
        ;;
    -o | --out)
        [ $# -ge 2 ] || { echo "upload_package.sh: $1 needs a folder" >&2 && exit 2; }
        out_dir=$2
        shift 2
        ;;
    *)
        echo "upload_package.sh: unknown argument '$1' (see --help)" >&2
        exit 2
        ;;
    esac
done
cargo=${CARGO:-cargo}
say() { echo "upload_package.sh: $*" >&2; }
# The bytes of the files under $1 (not du's disk blocks, which depend on the file system).
kib() { echo "$(($(find "$1" -type f -exec cat {} + | wc -c) / 1024)) KiB"; }

# `cargo pkgid` prints ...#mctsbot@0.2.0 (or ...#0.2.0 when the folder is named mctsbot).
pkgid=$("$cargo" pkgid --manifest-path "$root/Cargo.toml" -p mctsbot)
version=${pkgid##*[#@]}
mkdir -p "$out_dir"
zip_path=$(cd "$out_dir" && pwd)/mctsbot-$version.zip

# The staging folder must be outside the workspace: below it cargo would take the
# workspace's manifest for the crate's workspace root and refuse to build.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mctsbot-upload.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
staging=$tmp/mctsbot-$version
mkdir "$staging"

say "staging mctsbot $version in $staging"
# Sections dropped from the manifest, with the comment lines just above their headers.
awk '
    function dropped(section) {
        return section ~ /^(workspace|dev-dependencies|profile\.test)(\.|$)/
    }
    /^[ \t]*(#.*)?$/ { pending = pending $0 "\n"; next }
    /^[ \t]*\[/ {
        header = $0
        gsub(/^[ \t]*\[+[ \t]*|[ \t]*\]+.*$/, "", header)
        skip = dropped(header)
    }
    {
        if (!skip) printf "%s%s\n", pending, $0
        pending = ""
    }
' "$root/Cargo.toml" >"$staging/Cargo.toml"
if grep -Eq '^\[(workspace|dev-dependencies|profile\.test)' "$staging/Cargo.toml"; then
    say "dropping sections from Cargo.toml failed" && exit 1
fi
cp -R "$root/src" "$staging/src"

# The workspace's lock, pruned by cargo to the bot's dependencies (metadata resolves
# against the lock and only drops unused entries; it never upgrades what it keeps).
cp "$root/Cargo.lock" "$staging/Cargo.lock"
"$cargo" metadata --format-version 1 --manifest-path "$staging/Cargo.toml" >/dev/null
lock_pairs() { awk '/^name = /{n=$3} /^version = /{print n, $3}' "$1" | sort; }
changed=$(comm -23 <(lock_pairs "$staging/Cargo.lock") <(lock_pairs "$root/Cargo.lock"))
if [ -n "$changed" ]; then
    say "the pruned Cargo.lock has versions the workspace lock lacks:" && echo "$changed" >&2
    exit 1
fi
say "Cargo.lock: $(grep -c '^name = ' "$staging/Cargo.lock") packages (workspace: $(grep -c '^name = ' "$root/Cargo.lock"))"

say "vendoring the dependencies"
mkdir -p "$staging/.cargo"
# From the staging folder with a relative path: the printed config must say
# `directory = "vendor"`, not where the crate was staged.
# Its log (a line per crate) is shown only when it fails; --quiet would drop the config too.
(cd "$staging" && "$cargo" vendor --locked vendor >.cargo/config.toml 2>"$tmp/vendor.log") ||
    { cat "$tmp/vendor.log" >&2 && exit 1; }
grep -qx 'directory = "vendor"' "$staging/.cargo/config.toml" ||
    { say "unexpected cargo vendor config:" && cat "$staging/.cargo/config.toml" >&2 && exit 1; }
say "vendor/: $(kib "$staging/vendor"): $(ls "$staging/vendor" | tr '\n' ' ')"

cat >"$staging/UPLOAD.txt" <<EOF
mctsbot $version: Monte-Carlo Tree Search bot for Ultimate Tic-Tac-Toe and Light Riders.

Build (no network needed: the dependencies are in vendor/, .cargo/config.toml points
cargo at them):

    cargo build --release --offline --locked

The bot is target/release/mctsbot. It speaks the engines' protocol on stdin/stdout
(the game is detected from the settings) and logs on stderr (RUST_LOG=warn for less).
Made by scripts/upload_package.sh from the mctsbot workspace.
EOF

say "writing $zip_path"
rm -f "$zip_path"
entries=(Cargo.toml Cargo.lock .cargo src vendor UPLOAD.txt)
if command -v zip >/dev/null; then
    (cd "$staging" && zip -qrX "$zip_path" "${entries[@]}")
else
    say "zip not found: using python3's zipfile"
    (cd "$staging" && python3 -m zipfile -c "$zip_path" "${entries[@]}")
fi
echo "$zip_path: $(wc -c <"$zip_path") bytes ($(kib "$staging") unpacked)"
