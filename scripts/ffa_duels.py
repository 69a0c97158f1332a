#!/usr/bin/env python3
"""Where a Tron Battle free-for-all's final duels are decided.

Reads an `arena --game tron-cg --ffa --out DIR` series (games.jsonl and engine A's
transcripts). In every game where engine A is one of the last two riders it rebuilds the
trails at A's first turn with only two riders left (a rider out loses its trail, as
CodinGame's referee plays it) and prints the two riders' Voronoi cells (reached strictly
first), the cells each can reach, whether they are already cut apart, and whether A won
the duel. Then: how often A wins the duels it enters ahead, behind or level.

It also finds, in every game, A's first turn alone in its region (no other rider can
reach a cell A can) while three or more riders are still in, and prints by A's final
place the median turn and the cells A and the largest other rider could still reach.

And the windfalls: each time a rider goes out while A and at least one other stay in,
how many more cells A can reach on its next turn, its trail gone (whether A was alone in
its region just before, and A's final place).

    python3 scripts/ffa_duels.py out/ffa [--games]
"""
import json
import os
import statistics
import sys
from collections import deque

WIDTH, HEIGHT = 30, 20


def turns(transcript):
    """Each turn's `(our rider, [(x0, y0, x1, y1) for every rider])`."""
    lines = open(transcript).read().split("\n")
    i = 0
    while i < len(lines):
        words = lines[i].split()
        if len(words) == 3 and words[0] == ">":
            riders, me = int(words[1]), int(words[2])
            heads = [tuple(map(int, lines[i + 1 + k][2:].split())) for k in range(riders)]
            yield me, heads
            i += 1 + riders
        else:
            i += 1


def distances(blocked, start):
    """Breadth-first distances from `start` over the free cells."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        x, y = queue.popleft()
        for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nxt[0] < WIDTH and 0 <= nxt[1] < HEIGHT and nxt not in blocked and nxt not in seen:
                seen[nxt] = seen[(x, y)] + 1
                queue.append(nxt)
    return seen


def positions(transcript):
    """Each turn's `(our rider, heads, riders still in, blocked cells)`: a rider out
    loses its trail, as CodinGame's referee plays it."""
    trails = {}
    for me, heads in turns(transcript):
        for rider, (x0, y0, x1, y1) in enumerate(heads):
            if x0 < 0:
                trails.pop(rider, None)
            else:
                trails.setdefault(rider, set()).update({(x0, y0), (x1, y1)})
        alive = [r for r, head in enumerate(heads) if head[0] >= 0]
        yield me, heads, alive, set().union(*trails.values())


def alone(ours, others):
    """Whether no other rider reaches a cell we reach (our head aside): `ours` and each
    of `others` are distance maps from `distances`."""
    return not any(c in theirs for theirs in others for c, d in ours.items() if d > 0)


def sealed(transcript):
    """At our first turn alone in our region with three or more riders in: the turn,
    the cells we can reach and those the largest other rider can reach; or None."""
    for turn, (me, heads, alive, blocked) in enumerate(positions(transcript)):
        if len(alive) < 3 or me not in alive:
            return None
        reach = {r: distances(blocked, heads[r][2:]) for r in alive}
        ours = reach[me]
        if alone(ours, [reach[r] for r in alive if r != me]):
            largest = max(len(reach[r]) - 1 for r in alive if r != me)
            return turn + 1, len(ours) - 1, largest
    return None


def windfalls(transcript):
    """`(cells A reached before, after, alone before)` at each turn of A's that follows
    another rider going out, while A and at least one other rider are still in."""
    previous = None
    for me, heads, alive, blocked in positions(transcript):
        if previous and me in alive and len(alive) >= 2:
            was_alive, was_blocked, was_heads = previous
            if set(was_alive) - set(alive):
                before = distances(was_blocked, was_heads[me][2:])
                others = [distances(was_blocked, was_heads[r][2:]) for r in was_alive if r != me]
                after = distances(blocked, heads[me][2:])
                yield len(before) - 1, len(after) - 1, alone(before, others)
        previous = (alive, blocked, heads)


def duel_start(transcript):
    """The two riders' space at our first turn with one rival left, or None."""
    for me, heads, alive, blocked in positions(transcript):
        if len(alive) != 2 or me not in alive:
            continue
        rival = alive[0] if alive[1] == me else alive[1]
        ours = distances(blocked, heads[me][2:])
        theirs = distances(blocked, heads[rival][2:])
        far = 1 << 30
        return {
            "voronoi": (
                sum(1 for c, d in ours.items() if 0 < d < theirs.get(c, far)),
                sum(1 for c, d in theirs.items() if 0 < d < ours.get(c, far)),
            ),
            "reach": (len(ours) - 1, len(theirs) - 1),
            "apart": not any(c in theirs for c in ours if ours[c] > 0),
        }
    return None


def main():
    if {"-h", "--help"} & set(sys.argv[1:]):
        print(__doc__.strip())
        return
    unknown = [a for a in sys.argv[1:] if a.startswith("-") and a != "--games"]
    if unknown:
        sys.exit("ffa_duels.py: unknown option %s (--help for usage)" % unknown[0])
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    if len(args) != 1:
        sys.exit("usage: ffa_duels.py ARENA_OUT_DIR [--games]   (--help for more)")
    out = args[0]
    duels = []
    seals = {}
    falls = []
    for line in open(os.path.join(out, "games.jsonl")):
        game = json.loads(line)
        transcript = os.path.join(out, "transcripts", "game_%04d_A.txt" % game["index"])
        for before, after, was_alone in windfalls(transcript):
            falls.append((after - before, was_alone, game["places"]["A"]))
        seal = sealed(transcript)
        if seal:
            seals.setdefault(game["places"]["A"], []).append(seal)
        start = duel_start(transcript)
        if start:
            start["won"] = game["places"]["A"] == 1
            duels.append(start)
            if "--games" in sys.argv:
                print(game["index"], start)
    print("duels with A: %d, won %d" % (len(duels), sum(d["won"] for d in duels)))
    for name in ("voronoi", "reach"):
        lead = lambda d: d[name][0] - d[name][1]
        groups = (("ahead", lambda d: lead(d) > 0), ("behind", lambda d: lead(d) < 0), ("level", lambda d: lead(d) == 0))
        won = ", ".join(
            "%s won %d/%d" % (label, sum(d["won"] for d in duels if f(d)), sum(1 for d in duels if f(d)))
            for label, f in groups
        )
        print("%s lead at the duel's start: %s" % (name, won))
    apart = [d for d in duels if d["apart"]]
    print("already cut apart: %d (won %d)" % (len(apart), sum(d["won"] for d in apart)))
    print("alone in its region with 3+ riders in: %d games" % sum(map(len, seals.values())))
    for place, rows in sorted(seals.items()):
        medians = [statistics.median(row[k] for row in rows) for k in range(3)]
        print(
            "  place %d: %d games, median turn %g, A reaches %g cells, the largest other %g"
            % (place, len(rows), *medians)
        )
    print("a rider out, A and another still in: %d times" % len(falls))
    for was_alone in (True, False):
        rows = [f for f in falls if f[1] == was_alone]
        if rows:
            gains = [f for f in rows if f[0] > 10]
            print(
                "  A %s: %d, A reached more than 10 cells more %d times (median %g more; A's places then %s)"
                % ("alone in its region" if was_alone else "sharing its region", len(rows), len(gains),
                   statistics.median(f[0] for f in gains) if gains else 0,
                   "/".join(str(sum(1 for f in gains if f[2] == p)) for p in (1, 2, 3, 4)))
            )


if __name__ == "__main__":
    main()
