#!/usr/bin/env python3
"""Draws the package's module graph, read from Package.swift, as Guides/module-graph.svg.

Usage:
    Scripts/module-graph.py            # runs `swift package dump-package` at the package root
    Scripts/module-graph.py dump.json  # reads a dump made earlier

The graph holds every target a product ships and the targets they depend on (test targets, test
helpers and the store's crash-test process are left out). An arrow goes from a module to a module
it imports, drawn only when no longer path already connects them (the transitive reduction), so
each arrow is a dependency that nothing else implies. Modules sit in rows by their depth: a module
is one row above the deepest module it depends on. Libraries a user imports are blue, executables
green, the package's internal modules grey.

The output depends only on Package.swift, so CI regenerates it and fails on a difference.
"""
import json
import os
import subprocess
import sys
from xml.sax.saxutils import escape

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(ROOT, "Guides", "module-graph.svg")


def load(argv):
    if len(argv) > 1:
        with open(argv[1], encoding="utf-8") as f:
            return json.load(f)
    out = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def graph(package):
    targets = {t["name"]: t for t in package["targets"]}

    def deps(name):
        found = []
        for d in targets[name]["dependencies"]:
            for kind in ("byName", "target"):
                if kind in d and d[kind][0] in targets:
                    found.append(d[kind][0])
        return found

    kinds = {}
    for product in package["products"]:
        kind = "executable" if "executable" in product["type"] else "library"
        for t in product["targets"]:
            kinds[t] = kind
    shown, todo = set(), list(kinds)
    while todo:
        name = todo.pop()
        if name not in shown:
            shown.add(name)
            todo += deps(name)
    edges = {n: sorted(set(deps(n)) & shown) for n in shown}
    for n in shown:
        kinds.setdefault(n, "internal")
    return shown, edges, kinds


def reduce(nodes, edges):
    """Keeps an edge a -> b only when b is not reachable from a through another dependency."""
    def reach(start):
        seen, todo = set(), list(start)
        while todo:
            n = todo.pop()
            if n not in seen:
                seen.add(n)
                todo += edges[n]
        return seen
    return {a: [b for b in edges[a] if b not in reach([c for c in edges[a] if c != b])] for a in nodes}


def layers(nodes, edges):
    depth = {}

    def d(n):
        if n not in depth:
            depth[n] = 1 + max((d(m) for m in edges[n]), default=-1)
        return depth[n]
    for n in nodes:
        d(n)
    rows = [[] for _ in range(max(depth.values()) + 1)]
    for n in sorted(nodes):
        rows[depth[n]].append(n)
    # order each row by where its dependencies sit (bottom row alphabetical), two passes
    for _ in range(2):
        pos = {}
        for row in rows:
            if pos:
                row.sort(key=lambda n: (sum(pos[m] for m in edges[n]) / len(edges[n]) if edges[n] else 0, n))
            for i, n in enumerate(row):
                pos[n] = (i + 0.5) / len(row)
    return rows, depth


def svg(rows, reduced, kinds):
    box_w, box_h, gap_x, gap_y, pad = 150, 34, 26, 64, 24
    legend_h = 52
    widest = max(len(r) for r in rows)
    width = widest * box_w + (widest - 1) * gap_x + 2 * pad
    height = len(rows) * box_h + (len(rows) - 1) * gap_y + 2 * pad + legend_h
    center = {}
    for level, row in enumerate(rows):
        y = pad + legend_h + (len(rows) - 1 - level) * (box_h + gap_y)  # dependencies at the bottom
        row_w = len(row) * box_w + (len(row) - 1) * gap_x
        x0 = (width - row_w) / 2
        for i, n in enumerate(row):
            center[n] = (x0 + i * (box_w + gap_x) + box_w / 2, y + box_h / 2)
    fill = {"library": "#dbe9fb", "executable": "#dcf3dc", "internal": "#ececee"}
    stroke = {"library": "#2f6db5", "executable": "#2e8b3a", "internal": "#8e8e93"}
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'role="img" font-family="-apple-system, Helvetica, Arial, sans-serif">' % (width, height, width, height),
           "  <title>ReactiveMVVM's modules and what each imports (generated from Package.swift "
           "by Scripts/module-graph.py)</title>",
           '  <defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
           'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#6e6e73"/></marker></defs>',
           '  <rect width="%d" height="%d" fill="#ffffff"/>' % (width, height)]
    x = pad
    for kind, label in (("library", "library product"), ("executable", "executable product"),
                        ("internal", "internal module")):
        out.append('  <rect x="%d" y="%d" width="16" height="16" rx="3" fill="%s" stroke="%s"/>'
                   % (x, pad - 4, fill[kind], stroke[kind]))
        out.append('  <text x="%d" y="%d" font-size="13" fill="#1d1d1f">%s</text>' % (x + 22, pad + 9, label))
        x += 22 + len(label) * 7 + 24
    out.append('  <text x="%d" y="%d" font-size="13" fill="#6e6e73">arrow: depends on (an arrow that a longer path '
               'implies is left out)</text>' % (pad, pad + 31))
    for a in sorted(reduced):
        for b in reduced[a]:
            (x1, y1), (x2, y2) = center[a], center[b]
            y1 += box_h / 2
            y2 -= box_h / 2
            out.append('  <path d="M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="none" stroke="#6e6e73" '
                       'stroke-width="1.3" marker-end="url(#arrow)"/>'
                       % (x1, y1, x1, y1 + gap_y / 2, x2, y2 - gap_y / 2, x2, y2))
    for n in sorted(center):
        cx, cy = center[n]
        out.append('  <rect x="%.1f" y="%.1f" width="%d" height="%d" rx="8" fill="%s" stroke="%s" stroke-width="1.5"/>'
                   % (cx - box_w / 2, cy - box_h / 2, box_w, box_h, fill[kinds[n]], stroke[kinds[n]]))
        out.append('  <text x="%.1f" y="%.1f" font-size="14" text-anchor="middle" fill="#1d1d1f">%s</text>'
                   % (cx, cy + 5, escape(n)))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv):
    nodes, edges, kinds = graph(load(argv))
    rows, _ = layers(nodes, edges)
    text = svg(rows, reduce(nodes, edges), kinds)
    with open(OUTPUT, "w", encoding="utf-8") as f:
        f.write(text)
    print("module-graph: %d modules, %d arrows -> %s"
          % (len(nodes), sum(len(v) for v in reduce(nodes, edges).values()), os.path.relpath(OUTPUT, ROOT)))


if __name__ == "__main__":
    main(sys.argv)
