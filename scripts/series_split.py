#!/usr/bin/env python3
"""A series' score as played, by colour, and with the opponent's timeout games left out.

usage: series_split.py [--lines N] DIR [DIR ...]

Each DIR is an arena series (its games.jsonl and transcripts/) or a gauntlet's or
round-robin's folder (one series per subfolder). For every series it prints A's
W/D/L and score (± 95%) as played, as player 0 and as player 1, then twice with B's
timeout games left out: all of them, and only the real ones. A timeout is not real when
the arena noted that the rider had no move left (`# no move left` after `# no answer in
time`: some bots stay silent when every move crashes, a game they had lost anyway). A's
own faults are listed too, since A is the bot under test, and how many different games
each colour played (deterministic bots replay the same few games).

--lines N (first, UTTT series): A's results by the game's first N plies for each
colour, each line folded to the least of its images under the board's eight symmetries
(rotations and reflections), so that the images of a line count as one. Against a bot
that opens the same way every game, a colour's score is often the score of two or three
such lines, and which one a series falls into can turn on one near-tie of the search
(docs/uttt.md, stop 83).
"""
import json
import math
import os
import sys

NO_ANSWER = "# no answer in time"
NO_MOVE_LEFT = "# no move left"


def series_dirs(root):
    if os.path.exists(os.path.join(root, "games.jsonl")):
        return [root]
    subs = sorted(
        os.path.join(root, d)
        for d in os.listdir(root)
        if os.path.exists(os.path.join(root, d, "games.jsonl"))
    )
    if not subs:
        sys.exit(f"series_split.py: no games.jsonl in {root} or its subfolders")
    return subs


def real_timeouts(series, game, side):
    """Timeouts of `side` in `game` that were not a rider's with no move left."""
    path = os.path.join(series, game["transcripts"][side])
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return game["timeouts"][side]  # no transcript: count them all
    real = 0
    for i, line in enumerate(lines):
        if line == NO_ANSWER:
            following = lines[i + 1] if i + 1 < len(lines) else ""
            real += not following.startswith(NO_MOVE_LEFT)
    return real


def score_line(games):
    """W/D/L for A, its score and a 95% interval (normal approximation)."""
    w = sum(g["winner"] == "A" for g in games)
    d = sum(g["winner"] in ("draw", None) for g in games)
    n = len(games)
    if n == 0:
        return "0/0/0"
    points = [1.0 if g["winner"] == "A" else 0.5 if g["winner"] in ("draw", None) else 0.0 for g in games]
    mean = sum(points) / n
    var = sum((p - mean) ** 2 for p in points) / max(n - 1, 1)
    ci = 1.96 * math.sqrt(var / n)
    return f"{w}/{d}/{n - w - d} ({mean:.3f} ± {ci:.3f}, {n} games)"


def distinct_games(games):
    """How many different games (move lines) each colour of A played, and the most
    repeated one's count: two deterministic bots replay the same few games, so a series
    of many games may hold only a handful of different ones."""
    parts = []
    for rider in (0, 1):
        lines = [g["line"] for g in games if g["a_player"] == rider]
        if lines:
            most = max(lines.count(line) for line in set(lines))
            parts.append(f"as player {rider} {len(set(lines))} of {len(lines)} (the most repeated {most} times)")
    return ", ".join(parts)


# The board's eight symmetries, each a map of a cell's two coordinates (0..8): the same
# group as src/uttt/symmetry.rs's GRID_MAPS, applied to the 9x9 grid at once.
SYMMETRIES = [
    lambda a, b: (a, b),
    lambda a, b: (b, a),
    lambda a, b: (8 - a, b),
    lambda a, b: (a, 8 - b),
    lambda a, b: (8 - a, 8 - b),
    lambda a, b: (8 - b, 8 - a),
    lambda a, b: (b, 8 - a),
    lambda a, b: (8 - b, a),
]


def canonical_line(line, plies):
    """The first `plies` plies of a UTTT line (`x,y` words) as the least of their eight
    images, written back as `x,y` words."""
    cells = [tuple(int(v) for v in word.split(",")) for word in line.split()[:plies]]
    image = min(tuple(f(*cell) for cell in cells) for f in SYMMETRIES)
    return " ".join(f"{a},{b}" for a, b in image)


def lines_table(games, plies, shown=8):
    """A's results by canonical opening line, for each colour, most played first."""
    for rider in (0, 1):
        by_line = {}
        for g in games:
            if g["a_player"] == rider:
                by_line.setdefault(canonical_line(g["line"], plies), []).append(g)
        ranked = sorted(by_line.items(), key=lambda item: (-len(item[1]), item[0]))
        print(f"- A as player {rider}, by its first {plies} plies ({len(ranked)} lines):")
        for line, line_games in ranked[:shown]:
            print(f"  - {line}: {score_line(line_games)}")
        rest = [g for _, line_games in ranked[shown:] for g in line_games]
        if rest:
            print(f"  - {len(ranked) - shown} other lines: {score_line(rest)}")


def report(series, plies=None):
    settings = json.load(open(os.path.join(series, "series.json")))["settings"]
    games = [json.loads(l) for l in open(os.path.join(series, "games.jsonl")) if l.strip()]
    for g in games:
        g["real_b"] = real_timeouts(series, g, "B")
    name_a = settings.get("name_a") or "A"
    name_b = settings.get("name_b") or "B"
    print(f"## {name_a} against {name_b} ({series})")
    print(f"- as played: {score_line(games)}")
    for rider in (0, 1):
        print(f"- A as player {rider}: {score_line([g for g in games if g['a_player'] == rider])}")
    print(f"- distinct games: {distinct_games(games)}")
    timed_out = [g for g in games if g["timeouts"]["B"] > 0]
    real = [g for g in games if g["real_b"] > 0]
    print(f"- B's games with a timeout: {len(timed_out)}, with a real one: {len(real)}")
    print(f"- all B timeout games left out: {score_line([g for g in games if g['timeouts']['B'] == 0])}")
    print(f"- real B timeout games left out: {score_line([g for g in games if g['real_b'] == 0])}")
    faults = {k: sum(g[k]["A"] for g in games) for k in ("timeouts", "illegal", "crashes")}
    print(f"- A's faults: {faults['timeouts']} timeouts, {faults['illegal']} illegal, {faults['crashes']} crashes")
    if plies:
        if settings.get("game", "").lower().startswith("uttt"):
            lines_table(games, plies)
        else:
            print("- --lines: UTTT series only")
    print()


def main():
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if args else 2)
    plies = None
    if args[0] == "--lines":
        if len(args) < 2 or not args[1].isdigit() or int(args[1]) < 1:
            sys.exit("series_split.py: --lines needs a number of plies, 1 or more")
        plies = int(args[1])
        args = args[2:]
    unknown = [a for a in args if a.startswith("-")]
    if unknown:
        sys.exit(f"series_split.py: unknown option {unknown[0]} (see --help)")
    if not args:
        sys.exit("series_split.py: no series folder given (see --help)")
    for root in args:
        for series in series_dirs(root):
            report(series, plies)


if __name__ == "__main__":
    main()
