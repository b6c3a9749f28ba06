#!/usr/bin/env python3
"""Stages the DocC catalogs of the library modules for `docc convert` (Scripts/docs.sh runs it).

For each module it copies the hand-written catalog `Sources/<Module>/<Module>.docc` into the
staging folder and adds what is generated from the module's symbol graph and the repository:

  - the topic groups: the landing page gets a `## Topics` section that lists the guides of the
    module and every top-level symbol, grouped by the source folder it is declared in (the file,
    for a module with one folder); every symbol with members gets an extension file
    (`Reference/<path>.md`) whose topics list every member, grouped by the source file that
    declares it (by kind when they all come from one file). So no symbol is left to DocC's
    automatic groups, and a new public symbol needs no edit here;
  - the guides: `Guides/<Name>.md` become articles of the catalog the GUIDES table names, their
    links to other guides rewritten (`<doc:...>` in the same catalog, the other site's URL
    otherwise) and the local images they show copied into the catalog;
  - the marble pictures: every marble diagram of a doc comment (the code blocks that
    Tests/StreamsTests/OperatorDiagramTests.swift runs) drawn as an SVG by Scripts/marbles.py
    and shown on its symbol's page.

Usage: Scripts/docc-topics.py --graphs DIR --stage DIR Module...
Nothing is written outside the staging folder. Exits non-zero when a symbol cannot be placed.
"""
import argparse, glob, json, os, re, shutil, sys
from urllib.parse import unquote, urlparse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import marbles  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Which catalog each guide becomes an article of (a guide is in one catalog only).
GUIDES = {
    "Streams": ["Streams.md", "MigratingFromRxSwift.md", "Contributing-Streams.md"],
    "StreamsTesting": ["Testing.md"],
    "ObjectStore": ["ObjectStore.md", "ObjectStore-FileFormat.md"],
    "Repository": ["Repositories.md"],
    "HeadlessUI": ["HeadlessUI.md"],
    "MVVM": ["FirstApp.md", "ChatApp.md", "Pizzaiolo.md", "Tracks.md", "Performance.md", "Reliability.md"],
    "StreamsObservation": ["SwiftUI.md"],
}

KIND_GROUPS = [  # (symbol kind identifiers, group title), in the order the groups are shown
    (("swift.init",), "Initializers"),
    (("swift.enum.case",), "Cases"),
    (("swift.property", "swift.var"), "Properties"),
    (("swift.type.property",), "Type Properties"),
    (("swift.subscript", "swift.type.subscript"), "Subscripts"),
    (("swift.method", "swift.func"), "Methods"),
    (("swift.type.method",), "Type Methods"),
    (("swift.func.op", "swift.method.op", "swift.type.method.op"), "Operators"),
    (("swift.associatedtype",), "Associated Types"),
    (("swift.typealias",), "Type Aliases"),
    (("swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.actor"), "Types"),
    (("swift.macro",), "Macros"),
]


def kind_group(kind):
    for kinds, title in KIND_GROUPS:
        if kind in kinds:
            return title
    return "Other Symbols"


def stable_hash(text):
    """DocC's disambiguation hash of a precise identifier (32-bit FNV-1, folded to 24 bits, base 36)."""
    h = 2166136261
    for b in text.encode("utf-8"):
        h = ((h * 16777619) & 0xFFFFFFFF) ^ b
    h = (h >> 24) ^ (h & 0x00FFFFFF)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        h, r = divmod(h, 36)
        out = digits[r] + out
        if h == 0:
            return out


class Symbol:
    def __init__(self, raw, path, module):
        self.raw = raw
        self.usr = raw["identifier"]["precise"]
        self.path = path  # path components below the module, as DocC places the page
        self.kind = raw["kind"]["identifier"]
        self.title = raw["names"]["title"]
        loc = raw.get("location")
        self.file = unquote(urlparse(loc["uri"]).path) if loc else None
        self.line = loc["position"]["line"] + 1 if loc else 0
        self.doc = [l.get("text", "") for l in (raw.get("docComment") or {}).get("lines", [])]
        self.children = []
        self.link_path = None  # path components as written in a link, disambiguated
        self.other = None  # the extended module, for an extension of another module's type

    def source_key(self, module):
        if not self.file:
            return None
        prefix = os.path.join(ROOT, "Sources", module) + os.sep
        return os.path.relpath(self.file, prefix) if self.file.startswith(prefix) else None


def load(graphs, module):
    """Every public symbol of the module's graphs, and the relationships of all of them."""
    files = sorted(glob.glob(os.path.join(graphs, module + ".symbols.json")) +
                   glob.glob(os.path.join(graphs, module + "@*.symbols.json")))
    if not files:
        sys.exit("docc-topics: no symbol graph for %s in %s" % (module, graphs))
    symbols, blocks, relationships = {}, {}, []
    for path in files:
        graph = json.load(open(path))
        name = os.path.basename(path)[:-len(".symbols.json")]
        other = name.split("@", 1)[1] if "@" in name else None
        for raw in graph["symbols"]:
            if raw.get("accessLevel") not in ("public", "open"):
                continue
            if raw["kind"]["identifier"] == "swift.extension":
                # An extension block: its page is the extended type's, under the extended
                # module's page when the type is another module's.
                blocks[raw["identifier"]["precise"]] = (other, tuple(raw["pathComponents"]))
                continue
            s = Symbol(raw, tuple(raw["pathComponents"]), module)
            s.other = other
            symbols[s.usr] = s
        relationships += graph["relationships"]
    return symbols, blocks, relationships


def build_tree(symbols, blocks, relationships):
    """The page hierarchy as DocC builds it: a symbol is a child of what it is a member (or a
    requirement) of; an implementation that is a member of nothing sits beside the requirement it
    implements; members of an extension of another module's type sit under that type's page,
    itself under the extended module's page. Siblings that share a name get DocC's hash."""
    parent_usr, default_of, extends = {}, {}, {}
    for r in relationships:
        kind, source, target = r["kind"], r["source"], r["target"]
        if kind == "memberOf" or (kind in ("requirementOf", "optionalRequirementOf") and source not in parent_usr):
            parent_usr[source] = target
        elif kind == "defaultImplementationOf":
            default_of.setdefault(source, target)
        elif kind == "extensionTo":
            extends[source] = target
    virtual = {}
    def virtual_page(path, kind):
        if path not in virtual:
            v = Symbol({"identifier": {"precise": "virtual:" + "/".join(path)}, "kind": {"identifier": kind},
                        "names": {"title": path[-1]}}, path, None)
            virtual[path] = v
            if len(path) > 1:
                virtual_page(path[:-1], "module.extension" if len(path) == 2 else "type.extension").children.append(v)
        return virtual[path]
    def parent(s):
        target = parent_usr.get(s.usr)
        if target is None and s.usr in default_of:
            requirement = default_of[s.usr]
            target = parent_usr.get(requirement)
        if target is None:
            if len(s.path) == 1 and not s.other:
                return None
            if s.other:
                return virtual_page((s.other,) + s.path[:-1], "type.extension")
            sys.exit("docc-topics: no parent for %s" % "/".join(s.path))
        if target in symbols:
            return symbols[target]
        if target in blocks:
            other, path = blocks[target]
            if other is None:
                owner = extends.get(target)
                if owner in symbols:
                    return symbols[owner]
                sys.exit("docc-topics: extension of an unknown type: %s" % "/".join(path))
            return virtual_page((other,) + path, "type.extension")
        sys.exit("docc-topics: %s is a member of an unknown symbol %s" % ("/".join(s.path), target))
    roots = []
    for s in sorted(symbols.values(), key=lambda s: (s.path, s.usr)):
        p = parent(s)
        (p.children if p is not None else roots).append(s)
    roots += [v for path, v in sorted(virtual.items()) if len(path) == 1]
    def assign(siblings, prefix):
        by_name = {}
        for s in siblings:
            by_name.setdefault(s.path[-1], []).append(s)
        for name, same in by_name.items():
            for s in same:
                last = name if len(same) == 1 else "%s-%s" % (name, stable_hash(s.usr))
                s.link_path = prefix + (last,)
                assign(s.children, s.link_path)
    assign(roots, ())
    return roots


def link(s):
    return "``" + "/".join(s.link_path) + "``"


def order(s):
    return (s.file or "~", s.line, s.title)


def group_children(children, module, by_folder):
    """[(title, [symbols])]: by source folder (top level) or source file (members)."""
    keyed = {}
    for c in children:
        key = c.source_key(module)
        if c.kind in ("module.extension", "type.extension"):
            title = "Extended Modules" if c.kind == "module.extension" else "Extended Types"
        elif key is None:
            title = kind_group(c.kind)
        elif by_folder:
            folder = os.path.dirname(key)
            title = folder.replace(os.sep, ": ") if folder else os.path.splitext(key)[0]
        else:
            title = os.path.splitext(os.path.basename(key))[0]
        keyed.setdefault(title, []).append(c)
    if not by_folder and len([t for t in keyed if t not in dict((t, 0) for _, t in KIND_GROUPS)]) == 1:
        # Every member comes from one file: group by kind instead, which says more.
        keyed = {}
        for c in children:
            keyed.setdefault(kind_group(c.kind), []).append(c)
    kind_order = [t for _, t in KIND_GROUPS]
    def title_order(t):
        return (1, kind_order.index(t)) if t in kind_order else (2, 0) if t.startswith("Extended") else (0, t)
    return [(t, sorted(keyed[t], key=order)) for t in sorted(keyed, key=title_order)]


def topics_markdown(groups, guides=()):
    out = ["", "## Topics", ""]
    if guides:
        out += ["### Guides", ""] + ["- <doc:%s>" % g for g in guides] + [""]
    for title, members in groups:
        out += ["### " + title, ""] + ["- " + link(m) for m in members] + [""]
    return "\n".join(out)


# Names an article may not take: a module's own, and those of the modules the library extends
# (DocC gives each extended module a page of that name).
RESERVED = {"Swift", "Foundation", "Testing", "XCTest", "Dispatch", "_Concurrency"}


def guide_article_name(guide, module):
    stem = os.path.splitext(guide)[0]
    return stem + "Guide" if stem == module or stem in RESERVED or stem in GUIDES else stem


def guide_locations():
    where = {}
    for module, guides in GUIDES.items():
        for g in guides:
            where[g] = (module, guide_article_name(g, module))
    return where


LINK = re.compile(r'(!?)\[([^\]]*)\]\(([^)\s]*)\)')


def heading_anchors(guide):
    """{GitHub's anchor of a heading: DocC's anchor of it} for the headings of a guide: GitHub
    lower-cases and drops punctuation, DocC keeps the case; both turn spaces into dashes."""
    anchors = {}
    fence = False
    for line in open(os.path.join(ROOT, "Guides", guide)):
        if line.lstrip().startswith("```"):
            fence = not fence
        m = None if fence else re.match(r'^#{1,6}\s+(.*?)\s*$', line)
        if m:
            text = re.sub(r'[^\w\- ]', "", m.group(1).replace("`", ""))
            anchors[text.lower().replace(" ", "-")] = re.sub(r'\s+', "-", text.strip())
    return anchors


def transform_guide(text, module, guide, catalog):
    """A guide as an article of `module`'s catalog: links to other guides point at their article,
    links to other files of the repository become plain text, local images are copied."""
    where = guide_locations()
    guide_dir = os.path.join(ROOT, "Guides")
    out = []
    fence = False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fence = not fence
            # DocC reads the first word of the info string; the guide check's markers follow it.
            out.append(line)
            continue
        if fence:
            out.append(line)
            continue
        def repl(m):
            bang, label, target = m.groups()
            if re.match(r'^[a-z]+:', target):
                return m.group(0)
            if bang:
                source = os.path.normpath(os.path.join(guide_dir, target))
                if not os.path.isfile(source):
                    raise SystemExit("docc-topics: %s shows a missing image %s" % (guide, target))
                name = os.path.basename(source)
                os.makedirs(os.path.join(catalog, "Resources"), exist_ok=True)
                shutil.copy(source, os.path.join(catalog, "Resources", name))
                return "![%s](%s)" % (label, name)
            file, _, fragment = target.partition("#")
            base = os.path.basename(file) if file else guide
            if os.path.normpath(os.path.join(guide_dir, file)).startswith(guide_dir) and base in where:
                other, article = where[base]
                anchor = ""
                if fragment:
                    anchors = heading_anchors(base)
                    if fragment not in anchors:
                        raise SystemExit("docc-topics: Guides/%s links to %s, a heading %s does not have" % (guide, target, base))
                    anchor = "#" + anchors[fragment]
                if other == module:  # DocC checks these: the article and its heading must exist
                    return "[%s](<doc:%s%s>)" % (label, article, anchor)
                url = "/%s/documentation/%s/%s" % (other, other.lower(), article.lower())
                return "[%s](%s%s)" % (label, url, anchor)
            return label  # a file of the repository outside the documentation
        out.append(LINK.sub(repl, line))
    return "\n".join(out)


def extension_file(catalog, s, body):
    name = "-".join(s.link_path).replace("/", "_")
    name = re.sub(r'[^A-Za-z0-9_.()-]', lambda m: "_%02x" % ord(m.group(0)), name)
    path = os.path.join(catalog, "Reference", name[:180] + ".md")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("# %s\n%s\n" % (link(s), body))


def stage(module, graphs, stage_dir, stats):
    source = os.path.join(ROOT, "Sources", module, module + ".docc")
    catalog = os.path.join(stage_dir, module + ".docc")
    shutil.rmtree(catalog, ignore_errors=True)
    shutil.copytree(source, catalog)
    guides = []
    for g in GUIDES.get(module, []):
        article = guide_article_name(g, module)
        text = open(os.path.join(ROOT, "Guides", g)).read()
        os.makedirs(os.path.join(catalog, "Guides"), exist_ok=True)
        with open(os.path.join(catalog, "Guides", article + ".md"), "w") as f:
            f.write(transform_guide(text, module, g, catalog))
        guides.append(article)
    symbols, blocks, relationships = load(graphs, module)
    roots = build_tree(symbols, blocks, relationships)
    landing = os.path.join(catalog, module + ".md")
    text = open(landing).read()
    if "## Topics" in text:
        sys.exit("docc-topics: %s has its own ## Topics; the topics are generated" % landing)
    with open(landing, "w") as f:
        f.write(text.rstrip("\n") + "\n" + topics_markdown(group_children(roots, module, True), guides))
    pictures = 0
    count = 0
    def visit(s):
        nonlocal pictures, count
        count += 1
        body = ""
        if s.doc:
            drawn = marbles.pictures_for_doc(s.doc, os.path.join(catalog, "Resources"), "-".join(s.link_path))
            for image, alt in drawn:
                body += "\n![%s](%s)\n" % (alt.replace("]", "\\]").replace("[", "\\["), image)
            pictures += len(drawn)
        if s.children:
            body += topics_markdown(group_children(s.children, module, False))
        if body:
            extension_file(catalog, s, body)
        for c in s.children:
            visit(c)
    for r in roots:
        visit(r)
    stats.append("%s: %d symbols, %d guides, %d marble pictures" % (module, count, len(guides), pictures))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--graphs", required=True)
    ap.add_argument("--stage", required=True)
    ap.add_argument("modules", nargs="+")
    args = ap.parse_args()
    stats = []
    for m in args.modules:
        stage(m, args.graphs, args.stage, stats)
    print("docc-topics: " + "; ".join(stats))


if __name__ == "__main__":
    main()
