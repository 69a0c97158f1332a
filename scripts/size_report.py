#!/usr/bin/env python3
"""File and function sizes of non-test Rust code.

- non-test code: a file's text minus items under `#[cfg(test)]` (inline `mod tests {}`,
  test fns, test uses) and minus whole files declared `#[cfg(test)] mod x;`.
- "code lines": non-test lines that hold something besides whitespace and comments
  (doc comments count as comments); "lines": all non-test physical lines.
- a function's length: physical lines from its `fn` line to its closing brace,
  both included (its code lines given too); trait method declarations without a body
  are skipped. For each long fn, the comment lines directly above it (between it and the
  previous item: doc comments, `//` comments, attributes) are shown, and
  `reason` is yes when a plain `//` comment there says why it is long ("long").
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from import_graph import strip, item_end, test_ranges  # noqa: E402

DIRS = ["src", "arena/src", "tune/src"]


def strip_comments_only(src):
    """Blank comments only (a line inside a string literal stays code)."""
    return strip(src, strings=False)


def files(root):
    out = []
    for d in DIRS:
        base = os.path.join(root, d)
        for dp, _, fs in os.walk(base):
            for f in fs:
                if f.endswith(".rs"):
                    out.append(os.path.relpath(os.path.join(dp, f), root))
    return sorted(out)


def test_files(root, paths):
    """Files declared `#[cfg(test)] mod x;` (and everything below them)."""
    res = set()
    for p in paths:
        s = strip(open(os.path.join(root, p), encoding="utf-8").read())
        _, mods = test_ranges(s)
        stem = os.path.basename(p)[:-3]
        d = os.path.dirname(p)
        if stem not in ("mod", "lib", "main") and not p.endswith("/bin/" + stem + ".rs"):
            d = os.path.join(d, stem)
        for m in mods:
            res.add(os.path.join(d, m + ".rs"))
            res.add(os.path.join(d, m, "mod.rs"))
    return res


def analyse(root, fn_limit=80):
    paths = files(root)
    tf = test_files(root, paths)
    sizes, fns = [], []
    for p in paths:
        src = open(os.path.join(root, p), encoding="utf-8").read()
        if p in tf:
            sizes.append((p, 0, 0, True))
            continue
        s = strip(src)
        nocomment = strip_comments_only(src)
        ranges, _ = test_ranges(s)
        lines_s = nocomment.split("\n")
        starts = [0]
        for ln in src.split("\n"):
            starts.append(starts[-1] + len(ln) + 1)
        in_test = [False] * len(lines_s)
        for a, b in ranges:
            la = s.count("\n", 0, a)
            lb = s.count("\n", 0, max(a, b - 1))
            # attribute line itself and the item
            for k in range(la, lb + 1):
                in_test[k] = True
        code = sum(1 for k, ln in enumerate(lines_s) if not in_test[k] and ln.strip())
        phys = sum(1 for k in range(len(lines_s)) if not in_test[k])
        if src.endswith("\n"):
            phys -= 1  # the empty piece after the last newline
        sizes.append((p, code, phys, False))
        orig_lines = src.split("\n")
        for m in re.finditer(r"\bfn\s+(\w+)", s):
            if any(a <= m.start() < b for a, b in ranges):
                continue
            end = item_end(s, m.end())
            if s[end - 1] != "}":
                continue
            la = s.count("\n", 0, m.start())
            lb = s.count("\n", 0, end - 1)
            length = lb - la + 1
            if length <= fn_limit:
                continue
            fcode = sum(1 for k in range(la, lb + 1) if lines_s[k].strip())
            # the block above: attributes, doc comments, comments, and the fn's own line prefix
            above = []
            k = la - 1
            while k >= 0:
                t = orig_lines[k].strip()
                if t.startswith("//") or t.startswith("#[") or t.startswith("#!["):
                    above.append(t)
                    k -= 1
                elif t.startswith("*") or t.startswith("/*"):
                    above.append(t)
                    k -= 1
                else:
                    break
            above.reverse()
            plain = [a for a in above if a.startswith("//") and not a.startswith("///")
                     and not a.startswith("//!")]
            reason = any("long" in a.lower() for a in plain)
            fns.append((p, la + 1, m.group(1), length, fcode, reason, plain))
    return sizes, fns


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("root", help="the repository's root")
    parser.add_argument("--top", type=int, default=15, help="files to list (default 15)")
    parser.add_argument("--fn-limit", type=int, default=80, help="a long fn's lines (default 80)")
    parser.add_argument("--file-limit", type=int, default=600, help="a long file's lines (default 600)")
    args = parser.parse_args()
    root, top, lim, file_lim = args.root, args.top, args.fn_limit, args.file_limit
    sizes, fns = analyse(root, lim)
    print("## %s" % root)
    print("\n| file | code lines | non-test lines |")
    print("|---|---|---|")
    for p, c, ph, t in sorted(sizes, key=lambda x: -x[1])[:top]:
        flag = " **>%d**" % file_lim if c > file_lim else ""
        over = " (>%d)" % file_lim if ph > file_lim else ""
        print("| %s | %d%s | %d%s |" % (p, c, flag, ph, over))
    print("\nfiles over %d code lines: %s" % (file_lim, [p for p, c, _, _ in sizes if c > file_lim]))
    print(
        "files over %d non-test physical lines: %s"
        % (file_lim, [p for p, _, ph, _ in sizes if ph > file_lim])
    )
    print("\n| function | at | lines | code lines | reason comment |")
    print("|---|---|---|---|---|")
    for p, line, name, length, fc, reason, plain in sorted(fns, key=lambda x: -x[3]):
        why = "yes: " + " ".join(plain).replace("|", "\\|")[:160] if reason else "no"
        print("| `%s` | %s:%d | %d | %d | %s |" % (name, p, line, length, fc, why))


if __name__ == "__main__":
    main()
