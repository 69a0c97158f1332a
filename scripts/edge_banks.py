#!/usr/bin/env python3
"""The timebank at its edges: how long the bot takes to answer `action move BANK` for a
bank of 0, 1 and 20 ms (below the safety margin: answer at once) and 100000000 ms (far
above the engines' 10 s cap: clamped, with a warning), in both games, from the opening
position. Prints min/median/max over five fresh bots each.

    scripts/edge_banks.py [MCTSBOT]      (default target/release/mctsbot)
"""
import subprocess
import sys
import time

BOT = sys.argv[1] if len(sys.argv) > 1 else "target/release/mctsbot"
UTTT = ["settings timebank 10000", "settings time_per_move 500", "settings your_botid 1",
        "update game field " + ",".join(["0"] * 81),
        "update game macroboard " + ",".join(["-1"] * 9)]
TRON_FIELD = ["."] * 256
TRON_FIELD[7 * 16 + 3], TRON_FIELD[7 * 16 + 12] = "0", "1"
TRON = ["settings timebank 10000", "settings time_per_move 200", "settings your_botid 0",
        "settings field_width 16", "settings field_height 16",
        "update game field " + ",".join(TRON_FIELD)]
REPEATS = 5


def answer_ms(setup, bank):
    """One fresh bot: the setup lines, a pause, then the action; returns (answer, ms)."""
    bot = subprocess.Popen([BOT, "--seed", "1"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True, bufsize=1)
    for line in setup:
        bot.stdin.write(line + "\n")
    bot.stdin.flush()
    time.sleep(0.05)  # the setup is read before the clock starts
    start = time.perf_counter()
    bot.stdin.write(f"action move {bank}\n")
    bot.stdin.flush()
    answer = bot.stdout.readline().strip()
    elapsed = (time.perf_counter() - start) * 1000
    bot.stdin.close()
    bot.wait()
    return answer, elapsed


for game, setup in [("uttt", UTTT), ("tron", TRON)]:
    for bank in [0, 1, 20, 100000000]:
        runs = sorted((answer_ms(setup, bank) for _ in range(REPEATS)), key=lambda r: r[1])
        times = [ms for _, ms in runs]
        print(f"{game} action move {bank}: answer {runs[0][0]!r}, latency min {times[0]:.1f} "
              f"median {times[REPEATS // 2]:.1f} max {times[-1]:.1f} ms")
