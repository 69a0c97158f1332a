#!/usr/bin/env python3
"""One generation of the UTTT value network, end to end and resumable.

usage: uttt_generation.py --dir DIR [options]

The steps, each skipped when its output is already in DIR (so a stopped run goes on
where it stopped when started again with the same flags):

1. self-play: --games games of the network search (the teacher: `uttt-selfplay --teacher
   nn`, whose network is the checkout's network of the rule: src/uttt/WEIGHTS, below) in --shards shards of one
   thread each, DIR/games/shard_K.txt; a shard that stopped goes on from its last whole
   game;
2. train: `uttt-train` on those games (and --also files), from --init (by default the
   embedded network; a narrower one is widened) -> DIR/net.bin;
3. gate: `uttt-gate eval` of the embedded network and the new one on --probe (made once
   if missing: 400 held-out games, `uttt-gate probe`) -> DIR/gate.txt;
4. build: the bot with DIR/net.bin embedded, in a worktree of HEAD -> DIR/mctsbot;
5. series under CodinGame's rules (`arena --game uttt-cg`, one game at a time): the new
   bot against the checkout's bot (the guard), and for each --opponent both the new bot
   and the checkout's bot against it on the same starts, our bots with --bot-flags
   (default one random turn, so that games differ) -> DIR/series/NAME;
6. verdict: kept when the guard scores at least --guard-floor and the new bot scores at
   least the checkout's bot against every opponent; DIR/manifest.json records the data,
   the commands, the gate and the series. The data stays in DIR (outside the repository);
   a kept network is installed by hand: the printed `cp` lines.

WEIGHTS is the embedded network of the games' rule: nn_weights_codingame.bin under
CodinGame's (--rule codingame or both: the series are CodinGame's), nn_weights.bin under
TheAIGames' (the engines').

Nothing here knows any particular opponent: --opponent takes a name and a command line.
Progress: each tool's own progress lines, and a line per step.
"""
import argparse
import glob
import json
import math
import os
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = "uttt_generation.py"
# The built tools' folder (--bin).
BIN = os.path.join(ROOT, "target", "release")


def tool(name):
    """The path of a built tool, or a stop with the command that builds it."""
    path = os.path.join(BIN, name)
    if not os.path.exists(path):
        sys.exit(f"{TOOL}: no {path}: run cargo build --release -p mctsbot -p tune -p arena first")
    return path


def say(text):
    print(f"{TOOL}: {text}", file=sys.stderr, flush=True)


def run(command, log=None, commands=None):
    """Runs `command` (a list), its stderr (progress) on ours or in `log`; records it."""
    if commands is not None:
        commands.append(shlex.join(command))
    say("$ " + shlex.join(command))
    with open(log, "a") if log else open(os.devnull, "w") as sink:
        out = subprocess.run(command, stdout=sink if log else None, stderr=sink if log else None)
    if out.returncode != 0:
        sys.exit(f"{TOOL}: failed ({out.returncode}): {shlex.join(command)}" + (f"; see {log}" if log else ""))


def lines_in(path):
    if not os.path.exists(path):
        return 0
    with open(path) as f:
        return sum(1 for line in f if line.strip())


def self_play(args, commands):
    os.makedirs(os.path.join(args.dir, "games"), exist_ok=True)
    per_shard = math.ceil(args.games / args.shards)
    procs = []
    for shard in range(args.shards):
        path = os.path.join(args.dir, "games", f"shard_{shard}.txt")
        first, count = shard * per_shard, min(per_shard, args.games - shard * per_shard)
        done = lines_in(path)
        if count <= 0 or done >= count:
            continue
        # One thread a shard: its records are in game order, so a resumed shard starts
        # at the game after its last whole line.
        command = [
            tool("uttt-selfplay"), "--games", str(count - done),
            "--first-game", str(first + done), "--iterations", str(args.iterations),
            "--teacher", "nn", "--rule", args.rule, "--threads", "1",
            "--seed", str(args.seed), "--out", path,
        ]
        commands.append(shlex.join(command))
        say(f"self-play shard {shard}: games {first + done}..{first + count} ({done} done)")
        log = open(os.path.join(args.dir, "games", f"shard_{shard}.log"), "a")
        procs.append((subprocess.Popen(command, stderr=log), log))
    for proc, log in procs:
        if proc.wait() != 0:
            sys.exit(f"{TOOL}: a self-play shard failed; see {log.name}")
        log.close()
    games = glob.glob(os.path.join(args.dir, "games", "shard_*.txt"))
    total = sum(lines_in(g) for g in games)
    say(f"self-play: {total} games in {len(games)} shards")
    return sorted(games)


def positions_in(files):
    """Searched positions in record files: the values after each record's `;`."""
    count = 0
    for path in files:
        with open(path) as f:
            for line in f:
                if ";" in line:
                    count += len(line.split(";", 1)[1].split())
    return count


def train(args, games, commands):
    net = os.path.join(args.dir, "net.bin")
    if os.path.exists(net):
        return net
    partial = net + ".partial"
    command = [tool("uttt-train"), *games, *args.also, "--out", partial,
               "--epochs", str(args.epochs), "--lr", str(args.lr), "--lambda", str(args.lambda_),
               "--init", args.init, "--seed", str(args.seed)]
    run(command, os.path.join(args.dir, "train.log"), commands)
    os.replace(partial, net)
    return net


def probe_file(args, commands):
    if os.path.exists(args.probe):
        return args.probe
    held_out = args.probe + ".games"
    if lines_in(held_out) < 400:
        # Games no generation trains on (another seed and game range), from the same
        # search and rule as the data: the positions a network meets in play.
        run([tool("uttt-selfplay"), "--games", "400", "--first-game", "1000000",
             "--seed", "777", "--rule", args.rule, "--teacher", "nn",
             "--iterations", str(args.iterations), "--out", held_out], commands=commands)
    run([tool("uttt-gate"), "probe", held_out, "--out", args.probe + ".partial"],
        commands=commands)
    os.replace(args.probe + ".partial", args.probe)
    return args.probe


def gate(args, net, commands):
    out = os.path.join(args.dir, "gate.txt")
    if not os.path.exists(out):
        probe = probe_file(args, commands)
        command = [tool("uttt-gate"), "eval", probe,
                   "--net", args.embedded, "--net", net]
        commands.append(shlex.join(command))
        say("$ " + shlex.join(command))
        text = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        with open(out + ".partial", "w") as f:
            f.write(text)
        os.replace(out + ".partial", out)
    with open(out) as f:
        text = f.read()
    passed = f"gate: {net} beats 16 play-outs" in text
    return text, passed


def weights_name(rule):
    """The embedded network's file for games under `rule` (the bot has one per end rule)."""
    return "nn_weights.bin" if rule == "theaigames" else "nn_weights_codingame.bin"


def build(args, net, commands):
    binary = os.path.join(args.dir, "mctsbot")
    if os.path.exists(binary):
        return binary
    tree = os.path.join(args.dir, "build")
    if not os.path.exists(tree):
        run(["git", "-C", ROOT, "worktree", "add", "--detach", tree, "HEAD"], commands=commands)
    subprocess.run(["cp", net, os.path.join(tree, "src", "uttt", weights_name(args.rule))], check=True)
    run(["cargo", "build", "--release", "-p", "mctsbot", "--manifest-path",
         os.path.join(tree, "Cargo.toml")], commands=commands)
    subprocess.run(["cp", os.path.join(tree, "target", "release", "mctsbot"), binary], check=True)
    return binary


def series(args, name, a_cmd, b_name, b_cmd, commands):
    """A finished series' folder under DIR/series (played unless already there)."""
    out = os.path.join(args.dir, "series", name)
    if not os.path.exists(os.path.join(out, "results.json")):
        command = [tool("arena"), "--game", "uttt-cg", "--games", str(args.series_games),
                   "-j", "1", "--seed", str(args.series_seed), "--out", out,
                   "--engine", f"name=candidate cmd={a_cmd}", "--engine", f"name={b_name} cmd={b_cmd}"]
        if os.path.exists(os.path.join(out, "series.json")):
            command.append("--resume")
        run(command, commands=commands)
    return score(out)


def score(folder):
    """A's W/D/L, score, score moving first and second, and faults, from games.jsonl."""
    games = [json.loads(line) for line in open(os.path.join(folder, "games.jsonl")) if line.strip()]

    def tally(subset):
        w = sum(g["winner"] == "A" for g in subset)
        d = sum(g["winner"] == "draw" for g in subset)
        n = len(subset)
        return {"w": w, "d": d, "l": n - w - d, "score": round((w + d / 2) / n, 3) if n else None}

    return {
        "all": tally(games),
        "first": tally([g for g in games if g["a_player"] == 0]),
        "second": tally([g for g in games if g["a_player"] == 1]),
        "timeouts": sum(g["timeouts"]["A"] for g in games),
        "illegal": sum(g["illegal"]["A"] for g in games),
    }


def opponent(text):
    fields = dict(part.split("=", 1) for part in text.split(" ", 1) if "=" in part)
    if set(fields) != {"name", "cmd"}:
        raise argparse.ArgumentTypeError(f"expected 'name=NAME cmd=COMMAND', got {text!r}")
    return fields["name"], fields["cmd"]


def main():
    global BIN
    p = argparse.ArgumentParser(prog=TOOL, description=__doc__.split("\n\n", 1)[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 2)[2])
    p.add_argument("--dir", required=True, help="where the generation's data and results go (outside the repository)")
    p.add_argument("--games", type=int, default=45000, help="self-play games (default 45000: about 2.2 M positions)")
    p.add_argument("--iterations", type=int, default=4000, help="the teacher's iterations a move (default 4000)")
    p.add_argument("--rule", default="codingame", choices=["codingame", "theaigames", "both"], help="end rule of the games (default codingame)")
    p.add_argument("--shards", type=int, default=2, help="self-play shards, one thread each (default 2)")
    p.add_argument("--seed", type=int, default=1, help="seed of the games and the training (default 1)")
    p.add_argument("--also", action="append", default=[], metavar="FILE", help="more record files to train on (repeatable)")
    p.add_argument("--init", default=None, help="weights to start from (default the embedded network of the rule)")
    p.add_argument("--epochs", type=int, default=10, help="training epochs (default 10)")
    p.add_argument("--lr", type=float, default=0.0005, help="training's first learning rate (default 0.0005)")
    p.add_argument("--lambda", dest="lambda_", type=float, default=0.0, help="the result's share of a label (default 0)")
    p.add_argument("--probe", default=None, help="the gate's probe set (default DIR/../probe.txt, made if missing)")
    p.add_argument("--embedded", default=None, help="the network the gate compares with (default the embedded one of the rule)")
    p.add_argument("--opponent", action="append", default=[], type=opponent, metavar="'name=N cmd=C'", help="an outside bot for the decisive series (repeatable)")
    p.add_argument("--series-games", type=int, default=200, help="games of each series (default 200)")
    p.add_argument("--series-seed", type=int, default=6500, help="the series' seed: the same starts for every candidate (default 6500)")
    p.add_argument("--bot-flags", default="--random-turns 1", help="flags of both our bots in the series (default '--random-turns 1': games that differ against a bot that plays the same game every time)")
    p.add_argument("--guard-floor", type=float, default=0.5, help="the least score against the checkout's bot that keeps the network (default 0.5)")
    p.add_argument("--stop-after", choices=["self-play", "train", "gate", "build", "series"], help="stop after this step")
    p.add_argument("--bin", default=BIN, help="the built tools' folder (default target/release)")
    args = p.parse_args()
    embedded = os.path.join(ROOT, "src", "uttt", weights_name(args.rule))
    args.init = args.init or embedded
    args.embedded = args.embedded or embedded
    BIN = os.path.abspath(args.bin)
    args.dir = os.path.abspath(args.dir)
    args.probe = os.path.abspath(args.probe or os.path.join(args.dir, "..", "probe.txt"))
    if args.dir.startswith(ROOT + os.sep):
        sys.exit(f"{TOOL}: --dir must be outside the repository (data is never committed)")
    os.makedirs(args.dir, exist_ok=True)
    commands = []
    manifest = {"dir": args.dir, "settings": {k: v for k, v in vars(args).items() if k != "opponent"},
                "opponents": [name for name, _ in args.opponent]}

    games = self_play(args, commands)
    manifest["data"] = {"games": sum(lines_in(g) for g in games), "positions": positions_in(games + args.also)}
    if args.stop_after == "self-play":
        return
    net = train(args, games, commands)
    if args.stop_after == "train":
        return
    gate_text, passed = gate(args, net, commands)
    manifest["gate"] = {"passed": passed, "table": gate_text.splitlines()}
    say(f"gate: {'passed' if passed else 'not passed'} (DIR/gate.txt)")
    if args.stop_after == "gate":
        return
    candidate = build(args, net, commands)
    if args.stop_after == "build":
        return
    current = tool("mctsbot")
    ours = lambda binary: f"{binary} --seed {{seed}} {args.bot_flags}".strip()
    results = {"guard": series(args, "guard", ours(candidate), "current", ours(current), commands)}
    for name, cmd in args.opponent:
        results[name] = series(args, name, ours(candidate), name, cmd, commands)
        results[f"current-{name}"] = series(args, f"current-{name}", ours(current), name, cmd, commands)
    manifest["series"] = results
    if args.stop_after == "series":
        return
    faults = sum(r["timeouts"] + r["illegal"] for k, r in results.items() if not k.startswith("current-"))
    ahead = all(results[n]["all"]["score"] >= results[f"current-{n}"]["all"]["score"] for n, _ in args.opponent)
    kept = passed and results["guard"]["all"]["score"] >= args.guard_floor and ahead and faults == 0
    manifest["verdict"] = "kept" if kept else "dropped"
    manifest["commands"] = commands
    with open(os.path.join(args.dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    for name, r in results.items():
        a = r["all"]
        say(f"{name}: {a['w']}/{a['d']}/{a['l']} ({a['score']}), second {r['second']['score']}, "
            f"timeouts {r['timeouts']}, illegal {r['illegal']}")
    say(f"verdict: {manifest['verdict']} (DIR/manifest.json)")
    if kept:
        say(f"to keep it: cp {net} src/uttt/{weights_name(args.rule)}; cp {args.dir}/manifest.json docs/networks/GEN.json")


if __name__ == "__main__":
    main()
