#!/usr/bin/env python3
"""Compares the public API of RxSwift 6 (RxSwift, RxRelay, RxCocoa, RxTest, RxBlocking) and
RxDataSources' Differentiator with ours, from symbol graphs, and writes the table of
Guides/MigratingFromRxSwift.md between its `api-table` markers.

Usage:
  Scripts/rxswift-api.py RX_GRAPHS --rx-source RXSWIFT [--write]
  Scripts/rxswift-api.py --shapes --rx-source RXSWIFT

RX_GRAPHS is a folder of swift-symbolgraph-extract output for those modules, RXSWIFT a checkout
of RxSwift 6 (how to make both is in Guides/MigratingFromRxSwift.md, "The whole API"). Our graphs
are the ones Scripts/check-docs.sh leaves in .build/symbolgraph-docs (run it first). Without
--write the script prints the counts; with --write it updates the guide. --shapes prints only the
source-text comparison below, which needs no graphs.

Each RxSwift symbol is looked up by its path (`ObservableType.flatMapLatest(_:)`): **same** when
one of our modules declares that path, or the same member on the type ours declares it on
(RxSwift puts trait operators on `PrimitiveSequenceType`, some of ours are on
`PrimitiveSequence`), and, for the names in SHAPED, with a declaration that names the same
types (else **differs**), and for the declarations of SOURCE_SHAPED, with the same shape in the
source text of both (generic constraints, where clauses, parameter and return types, class
hierarchy; else **differs**); **renamed** or **missing** from the notes in RENAMED and MISSING below,
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


# Declarations whose shape is compared from source text, for the libraries whose symbol graph
# would not say enough by itself: RxCocoa's SharedSequence operators (generic constraints,
# where clauses, closure types) and RxSwift's MainScheduler (its class hierarchy). Paths are the
# files in an RxSwift checkout (--rx-source); ours are read from Sources/Streams.
SOURCE_SHAPED = {
    "RxCocoa": ["RxCocoa/Traits/SharedSequence/SharedSequence.swift",
                "RxCocoa/Traits/SharedSequence/SharedSequence+Operators+arity.swift"],
    "RxSwift": ["RxSwift/Schedulers/MainScheduler.swift",
                "RxSwift/Schedulers/SerialDispatchQueueScheduler.swift"],
}


def strip_comments(text):
    """The text with comments and string literals blanked (same length, so offsets hold)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(c if c == "\n" else " " for c in text[i:j])); i = j
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append('"' + " " * (j - i - 2) + '"' if j - i >= 2 else text[i:j]); i = j
        else:
            out.append(text[i]); i += 1
    return "".join(out)


def balanced(text, start, opening, closing):
    """The index just past the bracket that closes the one at `start`."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] in opening:
            depth += 1
        elif text[i] in closing:
            depth -= 1
            if depth == 0:
                return i + 1
    return len(text)


def split_top(text, separator=","):
    """`text` split at the separators that are not inside brackets."""
    parts, depth, current = [], 0, ""
    for i, c in enumerate(text):
        if c == ">" and text[i - 1:i] == "-":
            pass  # the arrow of a function type
        elif c in "(<[":
            depth += 1
        elif c in ")>]":
            depth -= 1
        if c == separator and depth == 0:
            parts.append(current); current = ""
        else:
            current += c
    if current.strip():
        parts.append(current)
    return [" ".join(p.split()) for p in parts]


def source_declarations(paths):
    """path (as in a symbol graph) -> shape, for the functions and classes declared in `paths`.

    A function's shape: its generic conformances, parameter types, `throws`, return type and
    where clause (its own and its extension's), with the types a same-type requirement makes
    equal spelled alike (`O1.SharingStrategy` is `SharingStrategy` when the clause says so). A
    class's shape: `final` or not, and its superclass."""
    found = {}
    for path in paths:
        text = strip_comments(open(path, encoding="utf-8").read())
        containers = []
        for m in re.finditer(r"\b(extension|struct|class|enum|protocol)\s+([A-Za-z_.]+)([^{]*)\{", text):
            end = balanced(text, m.end() - 1, "{", "}")
            containers.append((m.start(), end, m.group(1), m.group(2).split(".")[-1], m.group(3)))
            if m.group(1) == "class":
                inherited = split_top(m.group(3).split("where")[0].lstrip(" :"))
                final = "final" in text[max(0, m.start() - 40):m.start()].split("\n")[-1]
                # The superclass comes first; `Sendable` (checked or not) is this package's addition.
                found[m.group(2)] = {"final": final, "inherits": [t for t in inherited if not t.endswith("Sendable")]}
        for m in re.finditer(r"\bfunc\s+(\w+)\s*", text):
            enclosing = [c for c in containers if c[0] < m.start() < c[1] and c[2] != "class" or (c[2] == "class" and c[0] < m.start() < c[1])]
            if not enclosing:
                continue
            container = max(enclosing, key=lambda c: c[0])
            i, generics = m.end(), []
            if text[i] == "<":
                j = balanced(text, i, "<", ">")
                generics = split_top(text[i + 1:j - 1]); i = j
            i = text.index("(", i)
            j = balanced(text, i, "(", ")")
            parameters = split_top(text[i + 1:j - 1])
            tail = text[j:text.find("{", j) if text.find("{", j) >= 0 else len(text)]
            tail = tail.split("\n\n")[0]
            where = ""
            if re.search(r"\bwhere\b", tail):
                tail, where = re.split(r"\bwhere\b", tail, 1)
            returns = tail.split("->", 1)[1] if "->" in tail else "Void"
            requirements = split_top(where) + split_top(container[4].split("where", 1)[1]) if "where" in container[4] else split_top(where)
            labels, types = [], []
            for parameter in parameters:
                head, _, kind = parameter.partition(":")
                labels.append(head.split()[0] + ":")
                types.append(split_top(kind, "=")[0] if "=" in kind else " ".join(kind.split()))
            # Generic parameters are named by position; `Swift.` qualifications dropped.
            renamed = {g.split(":")[0].strip(): "T%d" % (n + 1) for n, g in enumerate(generics)}
            def rename(t):
                for name, position in renamed.items():
                    t = re.sub(r"(?<![\w.])" + re.escape(name) + r"(?![\w])", position, t)
                return " ".join(re.sub(r"\s*\.\.\.", "...", t.replace("Swift.", "")).split())
            # Same-type requirements: the classes of names they make equal, each spelled by
            # its simplest member in the types.
            classes = []
            for requirement in requirements:
                if "==" not in requirement:
                    continue
                names = {rename(n) for n in requirement.split("==")}
                joined = [c for c in classes if c & names]
                classes = [c for c in classes if not c & names] + [set().union(names, *joined)]
            canonical = {n: min(c, key=lambda n: ("." in n, len(n), n)) for c in classes for n in c}
            def spell(t):
                t = rename(t)
                for name in sorted(canonical, key=len, reverse=True):
                    t = re.sub(r"(?<![\w.])" + re.escape(name) + r"(?![\w])", canonical[name], t)
                return t
            key = "%s.%s(%s)" % (container[3], m.group(1), "".join(labels))
            found[key] = {
                "generics": [spell(g) for g in generics],
                "parameters": [spell(t) for t in types],
                "throws": bool(re.search(r"\bthrows\b", text[j:j + 40].split("->")[0])),
                "returns": spell(returns.strip()),
                "where": sorted({spell(r) for r in requirements if "==" not in r} | {" == ".join(sorted(c)) for c in classes}),
            }
    return found


def compare_sources(rx_source):
    """(library, RxSwift path) -> (our path, note or "" when the shapes are the same)."""
    ours = source_declarations(sorted(glob.glob(os.path.join(ROOT, "Sources", "Streams", "**", "*.swift"), recursive=True)))
    result = {}
    for library, files in SOURCE_SHAPED.items():
        theirs = source_declarations([os.path.join(rx_source, f) for f in files])
        for path, shape_ in theirs.items():
            candidates = [path] + [".".join([c] + path.split(".")[1:]) for c in family(path.split(".")[0])]
            mine = next((c for c in candidates if c in ours), None)
            if mine is None:
                continue
            spelled = lambda value: ", ".join(value) if isinstance(value, list) else str(value)
            differences = ["%s: `%s` here, `%s` in %s" % (field, spelled(ours[mine].get(field)), spelled(value), library)
                           for field, value in shape_.items() if ours[mine].get(field) != value]
            result[(library, path)] = (mine, "; ".join(differences))
    return result


def explained(table, path):
    best = None
    for prefix in table:
        if path == prefix or path.startswith(prefix + ".") or (prefix.endswith("*") and path.startswith(prefix[:-1])):
            if best is None or len(prefix) > len(best):
                best = prefix
    return best


def main():
    arguments = sys.argv[1:]
    rx_source = None
    if "--rx-source" in arguments:
        at = arguments.index("--rx-source")
        rx_source = arguments[at + 1] if at + 1 < len(arguments) else None
        del arguments[at:at + 2]
    if not arguments or not rx_source:
        print(__doc__)
        sys.exit(2)
    if arguments[0] == "--shapes":
        compared = compare_sources(rx_source)
        for (library, path), (mine, note) in sorted(compared.items()):
            print("%s %s -> %s: %s" % (library, path, mine, note or "same shape"))
        print("compared:", len(compared), "differ:", sum(1 for _, note in compared.values() if note))
        return
    shaped = compare_sources(rx_source)
    rx = load(arguments[0], LIBRARIES)
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
        elif found and shaped.get((module, path), ("", ""))[1]:
            status, note = "differs", shaped[(module, path)][1]
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
    if "--write" in arguments:
        table = ["| library | RxSwift | kind | ours | note |", "| --- | --- | --- | --- | --- |"]
        table += ["| %s | `%s` | %s | %s | %s |" % (m, p.replace("|", "\\|"), k, s, n) for m, p, k, s, n in rows]
        text = open(GUIDE).read()
        begin, end = "<!-- api-table:begin -->", "<!-- api-table:end -->"
        summary = "%d names: %d same, %d renamed, %d differ, %d missing." % (sum(counts.values()), counts["same"], counts["renamed"], counts["differs"], counts["missing"])
        text = re.sub(re.escape(begin) + ".*?" + re.escape(end), begin + "\n" + "\n".join(table) + "\n" + end, text, flags=re.S)
        text = re.sub(r"<!-- api-counts -->.*?<!-- /api-counts -->", "<!-- api-counts -->" + summary + "<!-- /api-counts -->", text, flags=re.S)
        open(GUIDE, "w").write(text)


main()
