#!/usr/bin/env python3
"""A simple wall-hugging Light Riders bot, the baseline of the Tron tables: among the
moves that do not crash at once, take the one whose new cell touches the most walls
(ties: keep going straight, then up/right/down/left). No search at all."""
import sys

DIRS = {"up": (0, -1), "right": (1, 0), "down": (0, 1), "left": (-1, 0)}


def main():
    me, width, field, last = "0", 16, [], None
    for line in sys.stdin:
        words = line.split()
        if words[:2] == ["settings", "your_botid"]:
            me = words[2]
        elif words[:2] == ["settings", "field_width"]:
            width = int(words[2])
        elif words[:3] == ["update", "game", "field"]:
            field = words[3].split(",")
        elif words[:2] == ["action", "move"]:
            height = len(field) // width
            head = field.index(me)
            x, y = head % width, head // width

            def free(cx, cy):
                return 0 <= cx < width and 0 <= cy < height and field[cy * width + cx] == "."

            # Boxed in: pass (the engine keeps the direction; a reversal is illegal).
            best, best_key = "pass", None
            for order, (name, (dx, dy)) in enumerate(DIRS.items()):
                nx, ny = x + dx, y + dy
                if not free(nx, ny):
                    continue
                walls = sum(not free(nx + ex, ny + ey) for ex, ey in DIRS.values())
                key = (walls, name == last, -order)
                if best_key is None or key > best_key:
                    best, best_key = name, key
            last = best
            print(best, flush=True)


if __name__ == "__main__":
    main()
