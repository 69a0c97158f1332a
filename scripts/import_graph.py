#!/usr/bin/env python3
"""Import graph of a Rust crate's src/ by top-level module and by file.

(--no-follow: an edge ends at the module a path names, e.g. uttt/mod.rs for
`super::Move`, instead of following re-exports to the defining file.)

What counts as an import: every path in a `use` declaration (use trees expanded) and every
`crate::…` / `self::…` / `super::…` / `mctsbot::…` (main.rs only) path elsewhere in the code,
plus bare `child::…` paths naming a child module of the current module. Paths are resolved
to the module file that defines the named item: `super` climbs (inline `mod x { }` blocks
count as a level), and names that a module re-exports or imports (`pub use board::Board`,
`use crate::search::Game`) are followed to their origin, so `super::Move` in uttt/nn.rs is an
edge to uttt/board.rs, not to uttt/mod.rs.

Test code: an item under `#[cfg(test)]` (an inline `mod tests { … }`, a `use`, a fn) and
every file declared with `#[cfg(test)] mod x;` are test code; their edges are reported
apart. Comments and string/char literals are blanked before scanning. Files under tests/
(integration tests) are not read.
"""
import argparse
import json
import os
import re
import sys
from collections import defaultdict


# ---------------------------------------------------------------- lexing

def strip(src, strings=True):
    """Blank comments, and string and char literals unless strings=False (keep newlines
    and offsets)."""
    out = list(src)
    i, n = 0, len(src)

    def blank(a, b, literal=True):
        if literal and not strings:
            return
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            blank(i, j, False)
            i = j
        elif src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j, False)
            i = j
        elif (c in "rb" and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_"))
              and re.match(r'(br|r)#*"', src[i:i + 40])):
            m = re.match(r'(br|r)(#*)"', src[i:])
            close = '"' + m.group(2)
            j = src.find(close, i + m.end())
            j = n if j < 0 else j + len(close)
            blank(i, j)
            i = j
        elif c == '"' or (c == "b" and src.startswith('b"', i)
                          and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_"))):
            j = i + (2 if c == "b" else 1)
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            blank(i, j + 1)
            i = j + 1
        elif c == "'":
            if i + 1 < n and src[i + 1] == "\\":
                j = src.find("'", i + 2)
                blank(i, j + 1)
                i = j + 1
            elif i + 2 < n and src[i + 2] == "'":
                blank(i, i + 3)
                i += 3
            else:
                i += 1  # lifetime
        else:
            i += 1
    return "".join(out)


def match_brace(s, i):
    """s[i] == '{': index just past the matching '}'."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == "{":
            depth += 1
        elif s[j] == "}":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(s)


def item_end(s, i):
    """End of the item starting at i: its ';' or its matching '}' (outside () and [])."""
    depth = 0
    j = i
    while j < len(s):
        ch = s[j]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == ";" and depth == 0:
            return j + 1
        elif ch == "{" and depth == 0:
            return match_brace(s, j)
        j += 1
    return len(s)


CFG_TEST = re.compile(r"#\[\s*cfg\s*\(\s*test\s*\)\s*\]")


def test_ranges(s):
    """(ranges of test code, names of `#[cfg(test)] mod x;` files)."""
    ranges, test_mods = [], []
    for m in CFG_TEST.finditer(s):
        j = m.end()
        # skip further attributes
        while True:
            k = re.match(r"\s*#\[", s[j:])
            if not k:
                break
            j = s.find("]", j + k.end()) + 1
        end = item_end(s, j)
        ranges.append((m.start(), end))
        mm = re.match(r"\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", s[j:])
        if mm:
            test_mods.append(mm.group(1))
    return ranges, test_mods


def inline_mods(s):
    return [(m.start(), match_brace(s, m.end() - 1), m.group(1))
            for m in re.finditer(r"\bmod\s+(\w+)\s*\{", s)]


# ---------------------------------------------------------------- use trees

def tokens(t):
    return re.findall(r"::|[{},*]|\w+", t)


def expand(toks, pos=0, prefix=()):
    """Expand a use tree into (path, alias) pairs; returns (list, pos)."""
    out = []
    path = list(prefix)
    while pos < len(toks):
        t = toks[pos]
        if t == "::":
            pos += 1
        elif t == "{":
            pos += 1
            while toks[pos] != "}":
                sub, pos = expand(toks, pos, path)
                out += sub
                if toks[pos] == ",":
                    pos += 1
            return out, pos + 1
        elif t in (",", "}"):
            break
        elif t == "*":
            out.append((path + ["*"], None))
            pos += 1
            return out, pos
        elif t == "as":
            out.append((path, toks[pos + 1]))
            return out, pos + 2
        else:
            path.append(t)
            pos += 1
    if path and path != list(prefix):
        if path[-1] == "self":
            out.append((path[:-1], path[-2] if len(path) > 1 else None))
        else:
            out.append((path, None))
    return out, pos


USE = re.compile(r"(?<![\w:])(?:pub(?:\s*\([^)]*\))?\s+)?use\s+([^;]*);")
PATH = re.compile(r"(?<![\w:])((?:crate|self|super|mctsbot)(?:\s*::\s*\w+)+)")
BARE = re.compile(r"(?<![\w:])(\w+)\s*::\s*(\w+)")


# ---------------------------------------------------------------- the crate

class Crate:
    def __init__(self, root, follow=True):
        self.root = root
        self.follow = follow
        self.files = {}  # module tuple -> relpath
        src = os.path.join(root, "src")
        for d, _, fs in os.walk(src):
            for f in fs:
                if not f.endswith(".rs"):
                    continue
                rel = os.path.relpath(os.path.join(d, f), src)
                parts = rel[:-3].split(os.sep)
                if parts[-1] == "mod":
                    parts = parts[:-1]
                if parts == ["lib"]:
                    parts = []
                self.files[tuple(parts)] = os.path.join("src", rel)
        self.text = {}
        self.tests = {}
        self.inl = {}
        test_files = set()
        for mod, rel in self.files.items():
            s = strip(open(os.path.join(root, rel), encoding="utf-8").read())
            self.text[mod] = s
            r, tm = test_ranges(s)
            self.tests[mod] = r
            self.inl[mod] = inline_mods(s)
            base = mod if mod != ("main",) else ()
            for name in tm:
                test_files.add(base + (name,))
        # a file below a test file is test code too
        self.test_files = {m for m in self.files
                           if any(m[:len(t)] == t for t in test_files)}
        self.names = {m: {} for m in self.files}  # module -> name -> (module path, item)
        self.globs = {m: [] for m in self.files}
        for mod in self.files:
            for pos, path, alias in self.uses(mod):
                if self.is_test(mod, pos) or self.depth(mod, pos):
                    continue
                if path[-1] == "*":
                    self.globs[mod].append(path[:-1])
                else:
                    self.names[mod][alias or path[-1]] = path

    def is_test(self, mod, pos):
        return mod in self.test_files or any(a <= pos < b for a, b in self.tests[mod])

    def depth(self, mod, pos):
        return sum(1 for a, b, _ in self.inl[mod] if a <= pos < b)

    def uses(self, mod, with_pub=False):
        for m in USE.finditer(self.text[mod]):
            public = m.group(0).lstrip().startswith("pub")
            for path, alias in expand(tokens(m.group(1)))[0]:
                if with_pub:
                    yield m.start(), path, alias, public
                else:
                    yield m.start(), path, alias

    def children(self, base):
        return {m[len(base)] for m in self.files if len(m) == len(base) + 1 and m[:len(base)] == base}

    def resolve(self, mod, depth, path, seen=None):
        """Module (file) that defines what `path` names, seen from `mod` (+depth inline
        levels); None when it leaves the crate."""
        cur = list(mod) + ["<inline>"] * depth
        is_main = mod == ("main",)
        segs = list(path)
        if not segs:
            return None
        first = segs[0]
        if first == "crate":
            base, segs = [], segs[1:]
            if is_main:
                return None
        elif first == "mctsbot" and is_main:
            base, segs = [], segs[1:]
        elif first == "self":
            base, segs = cur, segs[1:]
        elif first == "super":
            base = cur
            while segs and segs[0] == "super":
                base = base[:-1]
                segs = segs[1:]
        else:
            real = [c for c in cur if c != "<inline>"]
            if is_main or depth:
                return None
            if first in self.children(tuple(real)):
                base = real
            else:
                return None
        base = [c for c in base if c != "<inline>"]
        while segs and tuple(base + [segs[0]]) in self.files:
            base.append(segs[0])
            segs = segs[1:]
        base = tuple(base)
        if base not in self.files:
            return None
        if segs and segs[0] != "*" and self.follow:
            seen = seen or set()
            key = (base, segs[0])
            if key not in seen:
                seen.add(key)
                target = self.names[base].get(segs[0])
                if target is not None and target[-1] not in ("self",):
                    r = self.resolve(base, 0, target, seen)
                    if r is not None:
                        return r
        return base

    def edges(self):
        """(from module, to module, is_test, line) for every reference; self.facade holds
        the (from, to) pairs that are only a parent's `pub use` of its own descendants."""
        out = []
        self.facade = set()
        other = set()
        for mod in self.files:
            s = self.text[mod]
            spans = []
            for m in USE.finditer(s):
                spans.append((m.start(), m.end()))
            for pos, path, alias, public in self.uses(mod, True):
                if path and path[0] == "*":
                    continue
                p = path[:-1] if path[-1] == "*" else path
                r = self.resolve(mod, self.depth(mod, pos), p)
                if r is not None:
                    out.append((mod, r, self.is_test(mod, pos), s.count("\n", 0, pos) + 1))
                    if public and r[:len(mod)] == mod and r != mod:
                        self.facade.add((mod, r))
                    else:
                        other.add((mod, r))

            def in_use(pos):
                return any(a <= pos < b for a, b in spans)

            for m in PATH.finditer(s):
                if in_use(m.start()):
                    continue
                segs = re.split(r"\s*::\s*", m.group(1))
                r = self.resolve(mod, self.depth(mod, m.start()), segs)
                if r is not None:
                    out.append((mod, r, self.is_test(mod, m.start()), s.count("\n", 0, m.start()) + 1))
                    other.add((mod, r))
            if mod != ("main",):
                kids = self.children(mod)
                for m in BARE.finditer(s):
                    if in_use(m.start()) or m.group(1) not in kids or self.depth(mod, m.start()):
                        continue
                    r = self.resolve(mod, 0, [m.group(1), m.group(2)])
                    if r is not None:
                        out.append((mod, r, self.is_test(mod, m.start()), s.count("\n", 0, m.start()) + 1))
                        other.add((mod, r))
        self.facade -= other
        return out


def top(mod):
    return mod[0] if mod else "lib"


def sccs(nodes, adj):
    """Tarjan; returns components with more than one node (or a self loop)."""
    index, low, stack, on, res = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in adj.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in adj.get(v, ()):
                res.append(sorted(comp))
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return res


def simple_cycles(adj, comp, limit=50):
    """Elementary cycles inside one component (small graphs only)."""
    comp = sorted(comp)
    cycles = []
    for i, s in enumerate(comp):
        allowed = set(comp[i:])
        stack = [(s, [s])]
        while stack and len(cycles) < limit:
            v, path = stack.pop()
            for w in sorted(adj.get(v, ())):
                if w == s:
                    cycles.append(path + [s])
                elif w in allowed and w not in path:
                    stack.append((w, path + [w]))
    return cycles


# floors, low to high, from the README's layout table:
# game.rs "shared by everything"; protocol ("knowing no game"), timeman and search
# ("knows no game") above it; the games (which convert from each engine's lines, so may
# use protocol); bot is the glue; bench and the binary's main on top. cli.rs ("the bot's
# flag helpers and clock seeds") and json.rs ("bench's JSON lines") are helpers of the
# floors that use them.
FLOORS = {
    "game": 0, "json": 0, "cli": 0,
    "protocol": 1, "timeman": 1, "search": 1,
    "uttt": 2, "tron": 2,
    "bot": 3,
    "bench": 4, "main": 5, "lib": 5,
}


def report(root, files_under="uttt", follow=True):
    c = Crate(root, follow)
    ed = c.edges()
    prod = defaultdict(lambda: defaultdict(list))
    test = defaultdict(lambda: defaultdict(list))
    for a, b, t, line in ed:
        ta, tb = top(a), top(b)
        if ta == tb or ta == "lib":
            continue
        (test if t else prod)[ta][tb].append("%s:%d" % (c.files[a], line))
    for ta in list(test):
        for tb in list(test[ta]):
            if tb in prod[ta]:
                del test[ta][tb]
    tops = sorted({top(m) for m in c.files} - {"lib"})
    adj = {a: set(prod[a]) for a in tops}
    back = [(a, b, prod[a][b]) for a in tops for b in prod[a]
            if FLOORS.get(a, 9) < FLOORS.get(b, 9)]
    top_cycles = sccs(tops, adj)
    adj_t = {a: set(prod[a]) | set(test[a]) for a in tops}
    top_cycles_t = sccs(tops, adj_t)
    back_t = [(a, b, test[a][b]) for a in tops for b in test[a]
              if FLOORS.get(a, 9) < FLOORS.get(b, 9)]
    # files inside one top module
    fadj, fadj_t = defaultdict(set), defaultdict(set)
    fwhere = defaultdict(list)
    for a, b, t, line in ed:
        if top(a) == files_under and top(b) == files_under and a != b:
            fa, fb = c.files[a], c.files[b]
            (fadj_t if t else fadj)[fa].add(fb)
            if not t:
                fwhere[(fa, fb)].append(line)
    fnodes = {c.files[m] for m in c.files if top(m) == files_under}
    fcomp = sccs(fnodes, fadj)
    fcycles = [cy for comp in fcomp for cy in simple_cycles(fadj, comp)]
    facade = {(c.files[a], c.files[b]) for a, b in c.facade}
    fadj_nf = {a: {b for b in bs if (a, b) not in facade} for a, bs in fadj.items()}
    fcomp_nf = sccs(fnodes, fadj_nf)
    fcycles_nf = [cy for comp in fcomp_nf for cy in simple_cycles(fadj_nf, comp)]
    return {
        "tops": tops, "prod": {a: dict(prod[a]) for a in tops},
        "test": {a: dict(test[a]) for a in tops if test[a]},
        "back": back, "back_test": back_t,
        "top_sccs": top_cycles, "top_sccs_with_tests": top_cycles_t,
        "top_cycles": [cy for comp in top_cycles for cy in simple_cycles(adj, comp)],
        "file_edges": {a: sorted(fadj[a]) for a in sorted(fnodes)},
        "file_edges_test": {a: sorted(fadj_t[a] - fadj[a]) for a in sorted(fnodes) if fadj_t[a] - fadj[a]},
        "file_where": {"%s -> %s" % k: v for k, v in fwhere.items()},
        "file_sccs": fcomp, "file_cycles": fcycles,
        "facade_edges": sorted("%s -> %s" % e for e in facade if e[0] in fnodes),
        "file_sccs_no_facade": fcomp_nf, "file_cycles_no_facade": fcycles_nf,
    }


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("root", help="the repository's root")
    parser.add_argument("--files-under", default="uttt", help="the module whose files to graph")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--no-follow", action="store_true", help="do not follow re-exports")
    args = parser.parse_args()
    root, under, as_json = args.root, args.files_under, args.json
    r = report(root, under, not args.no_follow)
    if as_json:
        print(json.dumps(r, indent=1, default=list))
        return
    print("## %s\n" % root)
    print("| module | floor | imports (non-test) | test-only imports |")
    print("|---|---|---|---|")
    for a in r["tops"]:
        p = ", ".join("%s (%d)" % (b, len(v)) for b, v in sorted(r["prod"][a].items())) or "—"
        t = ", ".join("%s (%d)" % (b, len(v)) for b, v in sorted(r["test"].get(a, {}).items())) or "—"
        print("| %s | %s | %s | %s |" % (a, FLOORS.get(a, "?"), p, t))
    print("\narrows back up (non-test): %d" % len(r["back"]))
    for a, b, w in r["back"]:
        print("  %s -> %s: %s" % (a, b, ", ".join(w[:5])))
    print("arrows back up (test-only): %d" % len(r["back_test"]))
    for a, b, w in r["back_test"]:
        print("  %s -> %s: %s" % (a, b, ", ".join(w[:5])))
    print("circles among top-level modules (non-test SCCs): %d %s" % (len(r["top_sccs"]), r["top_sccs"]))
    print("  with test imports too: %d %s" % (len(r["top_sccs_with_tests"]), r["top_sccs_with_tests"]))
    print("\nfiles in src/%s (non-test edges):" % under)
    for a, bs in r["file_edges"].items():
        print("  %s -> %s" % (a, ", ".join(b.split("/")[-1] for b in bs) or "—"))
    for a, bs in r["file_edges_test"].items():
        print("  (test only) %s -> %s" % (a, ", ".join(b.split("/")[-1] for b in bs)))
    print("circles among files (SCCs): %d %s" % (len(r["file_sccs"]), r["file_sccs"]))
    for cy in r["file_cycles"]:
        print("  cycle: " + " -> ".join(x.split("/")[-1] for x in cy))
    print("façade edges (a parent's pub use of its own child, nothing else): %s" % r["facade_edges"])
    print("circles without façade edges (SCCs): %d %s" % (len(r["file_sccs_no_facade"]), r["file_sccs_no_facade"]))
    for cy in r["file_cycles_no_facade"]:
        print("  cycle: " + " -> ".join(x.split("/")[-1] for x in cy))


if __name__ == "__main__":
    main()
