#!/usr/bin/env python3
"""Marble diagrams of doc comments drawn as SVG pictures.

The diagrams are the code blocks of the operators' doc comments that
Tests/StreamsTests/DocDiagrams.swift reads and OperatorDiagramTests runs, in the same grammar:

    source: --a-----b-------|      inputs, one per line, optionally labelled
    a:        1-2-3-4|             an inner sequence, drawn where it is subscribed
    flatMapLatest { $0 }           the operator
            --1-2-3-5---6---|      the result
    where A = [1, 3]               (optional) what a capital letter of the result stands for

or on one line, `--1--x   asDriver(onErrorJustReturn: 0)   --1--0|` (input, operator, result
separated by three spaces or more). Every character is one frame; `-` nothing, a letter or digit
an element, `|` completion, `#` (or `x`) an error, `(ab)` events at one frame, `^` the
subscription. So the picture is drawn from the very strings whose behaviour the test checks.

Used by Scripts/docc-topics.py (`pictures_for_doc`); on its own,
`Scripts/marbles.py 'source: --1-2--|' 'map { $0 * 2 }' '--2-4--|' > out.svg` draws one diagram.
"""
import hashlib, os, re, sys
from xml.sax.saxutils import escape

FRAME = 22       # pixels per frame
ROW = 44         # pixels per marble line
LEFT = 70        # room for the labels
RADIUS = 9
PALETTE = ["#f6c344", "#62b5e5", "#7fc97f", "#f48f6f", "#b39ddb", "#4db6ac", "#f06292", "#a1887f"]


def marble_line(text):
    """(label, column, marbles) or None: `label: marbles` or `marbles`, as DocDiagrams.marbleLine."""
    label = None
    index = 0
    if ":" in text:
        name = text[:text.index(":")]
        if not name or not all(c.isalnum() for c in name):
            return None
        label = name
        index = text.index(":") + 1
    while index < len(text) and text[index] == " ":
        index += 1
    column = index
    marbles = text[column:].rstrip(" ")
    if not marbles or not all(c.isalnum() or c in "-|#^()" for c in marbles):
        return None
    if not any(c in "-|#" for c in marbles):
        return None
    return label, column, marbles


def without_caption(text):
    i = 0
    if ":" in text and all(c.isalnum() for c in text[:text.index(":")]):
        i = text.index(":") + 1
    while i < len(text) and text[i] == " ":
        i += 1
    while i < len(text) and text[i] != " ":
        i += 1
    return text[:i] if text[i:].startswith("   ") else text


def one_line(text):
    parts = [p.strip() for p in text.split("   ") if p.strip()]
    if len(parts) not in (3, 4):
        return None
    a, op, r = marble_line(parts[0]), marble_line(parts[1]), marble_line(parts[2])
    if not a or a[0] is not None or op is not None or not r or r[0] is not None:
        return None
    return {"inputs": [(None, 0, a[2])], "operator": parts[1], "result": (None, 0, r[2]), "legend": ""}


def diagrams_in_block(block):
    """The diagrams of one code block (a list of lines), as the test reads them; [] when the block
    is a code example or marbles with captions."""
    ones = [one_line(l) for l in block]
    if all(ones):
        return ones
    ops = [i for i, l in enumerate(block) if marble_line(without_caption(l)) is None and not l.startswith("where ")]
    if len(ops) != 1:
        return []
    legend = ""
    if block[-1].startswith("where "):
        legend = block[-1]
        block = block[:-1]
    op = ops[0]
    if op == 0 or op != len(block) - 2:
        return []
    parsed = [marble_line(l) for l in block]
    if any(parsed[i] is None for i in range(len(block)) if i != op):
        return []
    origin = min(p[1] for p in parsed if p)
    def line(p):
        return (p[0], p[1] - origin, p[2])
    return [{"inputs": [line(p) for p in parsed[:op]], "operator": block[op].strip(),
             "result": line(parsed[-1]), "legend": legend}]


def blocks_of_doc(lines):
    """The indented code blocks of a doc comment's lines (as the symbol graph gives them)."""
    texts = [l for l in lines if l.strip()]
    base = min((len(l) - len(l.lstrip(" ")) for l in texts), default=0)
    blocks, current = [], []
    for l in lines:
        if l.startswith(" " * (base + 4)) and l.strip():
            current.append(l[base + 4:].rstrip())
        else:
            if current:
                blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def colour(ch):
    return PALETTE[int(hashlib.sha1(ch.encode()).hexdigest(), 16) % len(PALETTE)]


def events(marbles):
    """[(frame, kind, text)] for a marble string; kind is 'next', 'completed', 'error' or 'subscribe'."""
    out = []
    frame = 0
    group = None
    for ch in marbles:
        at = group if group is not None else frame
        if ch == "(":
            group = frame
        elif ch == ")":
            group = None
        elif ch == "-":
            pass
        elif ch == "|":
            out.append((at, "completed", ""))
        elif ch in "#x":
            out.append((at, "error", ""))
        elif ch == "^":
            out.append((at, "subscribe", ""))
        else:
            out.append((at, "next", ch))
        frame += 1
    return out, frame


def svg(diagram):
    lines = diagram["inputs"]
    result = diagram["result"]
    width_frames = max(off + len(m) for _, off, m in lines + [result]) + 2
    width = LEFT + width_frames * FRAME + 20
    rows = len(lines) + 2 + (1 if diagram["legend"] else 0)
    height = rows * ROW + 16
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="Menlo, monospace" font-size="12" role="img">' % (width, height, width, height),
           '<title>%s</title>' % escape(diagram["operator"]),
           '<rect width="100%" height="100%" fill="#ffffff"/>']

    def timeline(y, label, offset, marbles):
        evs, length = events(marbles)
        x0 = LEFT + offset * FRAME
        x1 = LEFT + (offset + length) * FRAME + FRAME
        ends = [f for f, k, _ in evs if k in ("completed", "error")]
        stop = LEFT + (offset + min(ends)) * FRAME + FRAME // 2 if ends else x1
        if label:
            out.append('<text x="8" y="%d" fill="#555">%s:</text>' % (y + 4, escape(label)))
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333" stroke-width="1.5"/>' % (x0, y, stop, y))
        if not ends:
            out.append('<path d="M%d %d l-7 -4 v8 z" fill="#333"/>' % (x1, y))
        stacked = {}
        for f, kind, text in evs:
            x = LEFT + (offset + f) * FRAME + FRAME // 2
            if kind == "next":
                dy = stacked.get(f, 0)
                stacked[f] = dy + 1
                cy = y - dy * (RADIUS * 2 + 1)
                out.append('<circle cx="%d" cy="%d" r="%d" fill="%s" stroke="#333"/>' % (x, cy, RADIUS, colour(text)))
                out.append('<text x="%d" y="%d" text-anchor="middle">%s</text>' % (x, cy + 4, escape(text)))
            elif kind == "completed":
                out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333" stroke-width="2.5"/>' % (x, y - 11, x, y + 11))
            elif kind == "error":
                out.append('<path d="M%d %d l14 14 M%d %d l-14 14" stroke="#c62828" stroke-width="2.5"/>' % (x - 7, y - 7, x + 7, y - 7))
            elif kind == "subscribe":
                out.append('<path d="M%d %d l-5 9 h10 z" fill="#555"/>' % (x, y + 4))

    y = ROW // 2 + 8
    for label, offset, marbles in lines:
        timeline(y, label, offset, marbles)
        y += ROW
    out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="#eef3fb" stroke="#6b8cc7"/>'
               % (LEFT - 6, y - ROW // 2 + 6, width - LEFT - 8, ROW - 12))
    out.append('<text x="%d" y="%d" text-anchor="middle" fill="#1f3b73">%s</text>'
               % ((LEFT + width - 14) // 2, y + 4, escape(diagram["operator"])))
    y += ROW
    timeline(y, result[0], result[1], result[2])
    if diagram["legend"]:
        y += ROW
        out.append('<text x="%d" y="%d" fill="#555">%s</text>' % (LEFT, y, escape(diagram["legend"])))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def pictures_for_doc(doc_lines, resources, name):
    """Writes an SVG for each diagram of a doc comment into `resources`; returns [(file, alt)]."""
    drawn = []
    for block in blocks_of_doc(doc_lines):
        for diagram in diagrams_in_block(block):
            digest = hashlib.sha1(name.encode()).hexdigest()[:8]
            base = re.sub(r'[^A-Za-z0-9]+', "-", name).strip("-")[:60]
            file = "marble-%s-%s-%d.svg" % (base, digest, len(drawn) + 1)
            os.makedirs(resources, exist_ok=True)
            with open(os.path.join(resources, file), "w") as f:
                f.write(svg(diagram))
            drawn.append((file, "Marble diagram of " + diagram["operator"]))
    return drawn


if __name__ == "__main__":
    found = diagrams_in_block(sys.argv[1:])
    if not found:
        sys.exit("marbles: not a diagram")
    sys.stdout.write(svg(found[0]))
