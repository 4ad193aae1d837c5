#!/usr/bin/env python3
"""The graph of files that include or call each other, and its circles.

    python3 scripts/file-graph.py BUILD_DIR [--calls | --direct] [--edges] [--folder DIR]

A node is a module: a source file and its header (rules/rules_words.c and
rules/rules_words.h are one node). A edges to B when A's object file uses a
symbol B's object file defines (nm: a call, or a table read), and when A
includes B's header. A header with no source of its own (ov_scene_int.h:
shared types) is no node: including it edges to what it includes, so a
shared header that pulls in an entry point's header ties every includer to
that entry point. --direct leaves those headers out (a module's own header
only); --calls counts calls alone.

Prints every circle (a strongly connected set of more than one module;
--edges: with its edges, --folder: only those touching DIR) and every edge
into a folder above the file's own (the order of the README's layout
table); exits 1 when there is any. Only what BUILD_DIR compiled is seen:
build with every feature on.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The README's layout table, bottom first: a folder may use only folders before it.
FOLDERS = ["base", "rules", "roster", "media", "capture", "cvshim", "vision", "calib", "table", "referee", "overlay",
           "armylist", "venue", "watch", "cli"]
SKIP = {"tests", "build", "node_modules", "web", "scripts", "docs"}


def sources():
    out = []
    for d in os.listdir(ROOT):
        if d in SKIP or d.startswith(".") or d.startswith("build") or not os.path.isdir(os.path.join(ROOT, d)):
            continue
        for dirpath, _, files in os.walk(os.path.join(ROOT, d)):
            for f in files:
                if f.endswith((".c", ".h", ".cpp", ".hpp")):
                    out.append(os.path.relpath(os.path.join(dirpath, f), ROOT))
    return out


def stem(path):
    return os.path.splitext(path)[0]


def defined_and_used(build):
    """{module: (defined symbols, used symbols)} from the objects BUILD compiled."""
    res = {}
    for dirpath, _, files in os.walk(build):
        if "/tests/" in dirpath + "/" or "fuzz" in dirpath:
            continue
        for f in files:
            if not f.endswith(".o"):
                continue
            src = f[:-2]  # rules_words.c
            folder = os.path.relpath(dirpath, build).split(os.sep)[0]
            path = os.path.join(folder, src)
            if not os.path.exists(os.path.join(ROOT, path)):
                continue
            nm = subprocess.run(["nm", os.path.join(dirpath, f)], capture_output=True, text=True).stdout
            d, u = set(), set()
            for line in nm.splitlines():
                p = line.split()
                if len(p) == 2 and p[0] == "U":
                    u.add(p[1])
                elif len(p) == 3 and p[1] in "TDRBC":
                    d.add(p[2])
            m = stem(path)
            od, ou = res.get(m, (set(), set()))
            res[m] = (od | d, ou | u)
    return res


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    build, show_edges = args[0], "--edges" in args
    calls_only = "--calls" in args
    direct = "--direct" in args
    only = args[args.index("--folder") + 1] if "--folder" in args else None
    files = sources()
    by_name = {}
    for f in files:
        by_name.setdefault(os.path.basename(f), []).append(f)
    modules = {stem(f) for f in files if f.endswith((".c", ".cpp"))}
    raw = {}  # node (module or header-only header) -> set of targets
    for f in ([] if calls_only else files):
        text = open(os.path.join(ROOT, f), errors="replace").read()
        node = stem(f) if stem(f) in modules else f
        for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
            cand = os.path.normpath(os.path.join(os.path.dirname(f), inc))
            if cand not in files:
                c = by_name.get(os.path.basename(inc), [])
                if not c:
                    continue
                cand = c[0]
            target = stem(cand) if stem(cand) in modules else cand
            if target != node:
                raw.setdefault(node, set()).add(target)
    syms = defined_and_used(build)
    owner = {}
    for m, (d, _) in syms.items():
        for s in d:
            owner.setdefault(s, m)
    for m, (_, u) in syms.items():
        for s in u:
            o = owner.get(s)
            if o and o != m:
                raw.setdefault(m, set()).add(o)

    def resolve(t, seen):
        if t in modules:
            return {t}
        if t in seen or direct:
            return set()
        seen.add(t)
        out = set()
        for x in raw.get(t, ()):
            out |= resolve(x, seen)
        return out

    graph = {m: set() for m in modules}
    for m in modules:
        for t in raw.get(m, ()):
            graph[m] |= resolve(t, set())
        graph[m].discard(m)

    # Tarjan's strongly connected components, iteratively.
    index, low, on, stack, sccs, counter = {}, {}, set(), [], [], [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on:
                    low[v] = min(low[v], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    sccs.append(sorted(comp))
    bad = 0
    for comp in sorted(sccs):
        if only and not any(c.startswith(only + "/") for c in comp):
            continue
        bad += 1
        print("circle of %d: %s" % (len(comp), " ".join(comp)))
        if show_edges:
            for a in comp:
                for b in sorted(graph[a]):
                    if b in comp:
                        print("    %s -> %s" % (a, b))
    rank = {f: i for i, f in enumerate(FOLDERS)}
    for m in sorted(graph):
        for t in sorted(graph[m]):
            fa, ft = m.split("/")[0], t.split("/")[0]
            if fa in rank and ft in rank and rank[ft] > rank[fa]:
                if not only or m.startswith(only + "/"):
                    bad += 1
                    print("upward: %s -> %s" % (m, t))
    print("%d circles" % len([c for c in sccs if not only or any(x.startswith(only + "/") for x in c)]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
