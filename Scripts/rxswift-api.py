#!/usr/bin/env python3
"""Compares the public API of RxSwift 6 (RxSwift, RxRelay, RxCocoa, RxTest, RxBlocking) and
RxDataSources' Differentiator with ours, from symbol graphs, and writes the table of
Guides/MigratingFromRxSwift.md between its `api-table` markers.

Usage:
  Scripts/rxswift-api.py RX_GRAPHS [--write]

RX_GRAPHS is a folder of swift-symbolgraph-extract output for those modules (how to make it is
in Guides/MigratingFromRxSwift.md, "The whole API"). Our graphs are the ones
Scripts/check-docs.sh leaves in .build/symbolgraph-docs (run it first). Without --write the
script prints the rows it would write and the counts; with --write it updates the guide.

Each RxSwift symbol is looked up by its path (`ObservableType.flatMapLatest(_:)`): **same** when
one of our modules declares that path, or the same member on the type ours declares it on
(RxSwift puts trait operators on `PrimitiveSequenceType`, some of ours are on
`PrimitiveSequence`), and, for the names in SHAPED, with a declaration that names the same
types (else **differs**); **renamed** or **missing** from the notes in RENAMED and MISSING below,
which say why. A symbol that is neither found nor explained is reported, and the script fails:
the table stays exhaustive by construction.
"""
import glob, json, os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OURS = os.path.join(ROOT, ".build", "symbolgraph-docs")
GUIDE = os.path.join(ROOT, "Guides", "MigratingFromRxSwift.md")
LIBRARIES = ["RxSwift", "RxRelay", "RxCocoa", "RxTest", "RxBlocking", "Differentiator"]

# Types that stand for one another at a call site: a member declared on one is used the same way
# through the other.
FAMILIES = [
    {"Observable", "ObservableType", "ObservableConvertibleType"},
    {"PrimitiveSequence", "PrimitiveSequenceType"},
    {"SharedSequence", "SharedSequenceConvertibleType"},
    {"Infallible", "InfallibleType"},
    {"ObserverType", "AnyObserver"},
    {"Disposable", "Cancelable"},
    {"SchedulerType", "ImmediateSchedulerType"},
    {"SectionModelType", "AnimatableSectionModelType"},
]

# RxSwift type names that are type aliases here: the same at a call site.
ALIASES = {
    "RxError": "StreamsError",
    "TestSchedulerVirtualTimeConverter": "IntegerVirtualTimeConverter",
}

# Names (path prefixes, per library) that must also have the same shape to count as the same:
# the declaration names the same types, in the same order (payloads, parameter and return
# types, generic constraints). Otherwise the row says "differs" and shows both declarations.
# (Elsewhere type aliases, `[Item]` for `[ItemType]`, would need resolving first.)
SHAPED = {"Differentiator": ["Diff", "Changeset"]}

# Members every conformance provides; they count as present when the type is.
WITNESSES = {"==(_:_:)", "hash(into:)", "hashValue"}

# Paths that are the same call here although the symbol is declared differently.
SAME = {
    "==(_:_:)": "`Event`, `Recorded` and the trait events are `Equatable`",
}

# path prefix -> note on what to write instead
RENAMED = {}

# path prefix -> reason; the longest matching prefix wins.
MISSING = {
    "DisposeBase": "RxSwift's base class of `DisposeBag`, there for its resource count; `Resources.total` here counts subscriptions, not bags",
    "maxTailRecursiveSinkStackSize": "a statistic of RxSwift's tail-recursive sinks; `concat`, `retry` and `catch(sequence:)` go through the trampoline here and never nest",
    "KVORepresentable": "key-value observing needs the Objective-C runtime",
    "Bool.KVOType": "key-value observing needs the Objective-C runtime",
    "Bool.init(KVOValue:)": "key-value observing needs the Objective-C runtime",
    "Int*": "key-value observing needs the Objective-C runtime",
    "UInt*": "key-value observing needs the Objective-C runtime",
    "RxCocoaError": "the errors of RxCocoa's Objective-C runtime features (swizzling, KVO, delegate proxies) and UIKit table bindings; HeadlessUI's bindings report their own errors",
}


def load(folder, modules):
    symbols = {}
    for module in modules:
        for path in glob.glob(os.path.join(folder, module + ".symbols.json")) + glob.glob(os.path.join(folder, module + "@*.symbols.json")):
            graph = json.load(open(path))
            for symbol in graph["symbols"]:
                if symbol["accessLevel"] not in ("public", "open"):
                    continue
                key = ".".join(symbol["pathComponents"])
                symbols.setdefault(key, (module, symbol))
    return symbols


def family(name):
    for f in FAMILIES:
        if name in f:
            return f
    return {name}


def variadic(name):
    """`zip(_:_:_:resultSelector:)` -> `zip(_…:resultSelector:)`: RxSwift's fixed arities and
    our parameter packs (two sources or more) are the same call."""
    return re.sub(r"(_:){2,}", "_…:", name)


def lookup(path, ours, variadic_ours):
    parts = path.split(".")
    parts[0] = ALIASES.get(parts[0], parts[0])
    if ".".join(parts) in ours:
        return ".".join(parts)
    if len(parts) >= 2 and parts[-1] in WITNESSES and ".".join(parts[:-1]) in ours:
        return ".".join(parts[:-1])
    containers = family(parts[0]) if len(parts) >= 2 else {parts[0]}
    for container in containers:
        candidate = ".".join([container] + parts[1:])
        if candidate in ours:
            return candidate
        packed = ".".join([container] + parts[1:-1] + [variadic(parts[-1])])
        if packed in variadic_ours:
            return variadic_ours[packed]
    return None


def shape(symbol):
    """The types a declaration names, in order: `case duplicateItem(item: Any)` -> ["Any"]."""
    return [f["spelling"] for f in symbol.get("declarationFragments", []) if f["kind"] == "typeIdentifier"]


def declaration(symbol):
    return re.sub(r"\s+", " ", "".join(f["spelling"] for f in symbol.get("declarationFragments", []))).strip()


def explained(table, path):
    best = None
    for prefix in table:
        if path == prefix or path.startswith(prefix + ".") or (prefix.endswith("*") and path.startswith(prefix[:-1])):
            if best is None or len(prefix) > len(best):
                best = prefix
    return best


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    rx = load(sys.argv[1], LIBRARIES)
    # Where each library's names must be found for "same" to hold: changing the import line is
    # all a port does, so a RxSwift name must be in Streams, not only somewhere in the package.
    homes = {
        "RxSwift": ["Streams"], "RxRelay": ["Streams"], "RxCocoa": ["Streams", "HeadlessUI", "Repository"],
        "RxTest": ["StreamsTesting", "Streams"], "RxBlocking": ["StreamsBlocking", "Streams"],
        "Differentiator": ["HeadlessUI"],
    }
    ours_by_home = {library: load(OURS, modules) for library, modules in homes.items()}
    variadic_by_home = {}
    for library, symbols in ours_by_home.items():
        packed = {}
        for key in symbols:
            parts = key.split(".")
            packed.setdefault(".".join(parts[:-1] + [variadic(parts[-1])]), key)
        variadic_by_home[library] = packed
    rows, unexplained = [], []
    counts = {"same": 0, "renamed": 0, "differs": 0, "missing": 0}
    for path in sorted(rx, key=lambda p: (LIBRARIES.index(rx[p][0]), p.lower())):
        module, symbol = rx[path]
        kind = symbol["kind"]["displayName"]
        found = lookup(path, ours_by_home[module], variadic_by_home[module])
        ours_symbol = ours_by_home[module].get(found, (None, {}))[1] if found else None
        if found == path and explained(SHAPED.get(module, []), path) and shape(symbol) != shape(ours_symbol):
            status, note = "differs", "`%s` here, `%s` in %s" % (declaration(ours_symbol), declaration(symbol), module)
        elif found:
            status, note = "same", "" if found == path else "on `%s`" % found.split(".")[0]
        elif path in SAME:
            status, note = "same", SAME[path]
        elif explained(RENAMED, path):
            prefix = explained(RENAMED, path)
            status, note = "renamed", RENAMED[prefix]
        elif explained(MISSING, path):
            status, note = "missing", MISSING[explained(MISSING, path)]
        else:
            unexplained.append("%s  %s  (%s)" % (module, path, kind))
            continue
        counts[status] += 1
        rows.append((module, path, kind, status, note))
    for line in unexplained:
        print("UNEXPLAINED", line)
    print("counts:", counts, "unexplained:", len(unexplained))
    if unexplained:
        sys.exit(1)
    if "--write" in sys.argv:
        table = ["| library | RxSwift | kind | ours | note |", "| --- | --- | --- | --- | --- |"]
        table += ["| %s | `%s` | %s | %s | %s |" % (m, p.replace("|", "\\|"), k, s, n) for m, p, k, s, n in rows]
        text = open(GUIDE).read()
        begin, end = "<!-- api-table:begin -->", "<!-- api-table:end -->"
        summary = "%d names: %d same, %d renamed, %d differ, %d missing." % (sum(counts.values()), counts["same"], counts["renamed"], counts["differs"], counts["missing"])
        text = re.sub(re.escape(begin) + ".*?" + re.escape(end), begin + "\n" + "\n".join(table) + "\n" + end, text, flags=re.S)
        text = re.sub(r"<!-- api-counts -->.*?<!-- /api-counts -->", "<!-- api-counts -->" + summary + "<!-- /api-counts -->", text, flags=re.S)
        open(GUIDE, "w").write(text)


main()
