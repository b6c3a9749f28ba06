#!/usr/bin/env bash
# Reports every public symbol of the library modules that has no doc comment, as
# `Sources/<file>:<line>: <kind> <name>`, and exits non-zero if there is any. Works offline.
#
# Usage:
#   Scripts/check-docs.sh                      # every library module
#   Scripts/check-docs.sh Streams StreamsTesting
#   CHECK_DOCS_SKIP_BUILD=1 Scripts/check-docs.sh   # reuse the symbol graphs of the last run
#
# How: `swift build` (debug, reusing .build/), then swift-symbolgraph-extract on every module
# (into .build/symbolgraph-docs/), public and open symbols only, without the members a
# type gets from its superclass or from protocol extensions (--skip-synthesized-members). A small
# python3 checker reads the graphs (`<Module>.symbols.json`, and `<Module>@<Other>.symbols.json`
# for the module's extensions of other modules' types).
#
# The rule: a public or open symbol declared in Sources/<Module>/ needs a doc comment of its own,
# with these exceptions, which DocC itself documents from elsewhere:
#   - symbols with no source location (compiler-synthesised: implicit initialisers, Equatable and
#     Hashable conformances, enum `allCases`, and members inherited from other modules);
#   - an implementation of a protocol requirement or an override of a superclass member that has
#     no comment of its own: the symbol graph gives it the requirement's (or overridden member's)
#     comment, as DocC shows it, so it counts as documented when that comment exists. An
#     implementation of an undocumented requirement, e.g. some stdlib protocols' members, is
#     reported when none is found anywhere.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

MODULES=("$@")
[[ ${#MODULES[@]} -gt 0 ]] || MODULES=(Streams StreamsTesting StreamsBlocking ObjectStore Repository Differentiator HeadlessUI MVVM StreamsObservation Pizzaiolo Tracks)

start=$(date +%s)
BIN="$(swift build --show-bin-path)"
GRAPHS="$ROOT/.build/symbolgraph-docs"
if [[ -z "${CHECK_DOCS_SKIP_BUILD:-}" ]]; then
    log="$(mktemp)"
    if ! swift build >"$log" 2>&1; then
        cat "$log" >&2; rm -f "$log"
        echo "check-docs: swift build failed" >&2
        exit 2
    fi
    rm -f "$log"
    rm -rf "$GRAPHS"; mkdir -p "$GRAPHS"
    TRIPLE="$(swift -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["unversionedTriple"])')"
    SDK=()
    if [[ "$(uname)" == Darwin ]]; then SDK=(-sdk "$(xcrun --show-sdk-path)"); fi
    # The C targets' module maps (in their include/ folders), which the Swift modules import.
    CMODULES=()
    for include in Sources/*/include; do [[ -d "$include" ]] && CMODULES+=(-I "$ROOT/$include"); done
    for module in "${MODULES[@]}"; do
        swift-symbolgraph-extract -module-name "$module" -target "$TRIPLE" "${SDK[@]}" \
            -I "$BIN/Modules" "${CMODULES[@]}" -module-cache-path "$BIN/ModuleCache" \
            -minimum-access-level public -skip-synthesized-members -output-dir "$GRAPHS"
    done
fi

status=0
python3 - "$ROOT" "$GRAPHS" "${MODULES[@]}" <<'PY' || status=$?
import glob, json, os, sys
from urllib.parse import unquote, urlparse

root, graphs, modules = sys.argv[1], sys.argv[2], sys.argv[3:]
missing = {}
for module in modules:
    files = glob.glob(os.path.join(graphs, module + ".symbols.json")) + \
            glob.glob(os.path.join(graphs, module + "@*.symbols.json"))
    if not files:
        print("check-docs: no symbol graph for module %s" % module, file=sys.stderr)
        sys.exit(2)
    prefix = os.path.join(root, "Sources", module) + os.sep
    for path in files:
        graph = json.load(open(path))
        for s in graph["symbols"]:
            if s.get("accessLevel") not in ("public", "open"):
                continue
            loc = s.get("location")
            if not loc:
                continue  # synthesised by the compiler
            file = unquote(urlparse(loc["uri"]).path)
            if not file.startswith(prefix):
                continue  # declared elsewhere (another module, a dependency)
            doc = s.get("docComment")
            if doc and any(l.get("text", "").strip() for l in doc.get("lines", [])):
                continue
            line = loc["position"]["line"] + 1
            name = ".".join(s["pathComponents"])
            kind = s["kind"]["displayName"].lower()
            missing[(os.path.relpath(file, root), line, name)] = kind

for (file, line, name), kind in sorted(missing.items()):
    print("%s:%d: undocumented %s %s" % (file, line, kind, name))
counts = {}
for (file, _, _) in missing:
    m = file.split(os.sep)[1]
    counts[m] = counts.get(m, 0) + 1
summary = ", ".join("%s %d" % (m, counts.get(m, 0)) for m in modules)
print("check-docs: %d undocumented public symbol(s) (%s)" % (len(missing), summary))
sys.exit(1 if missing else 0)
PY
echo "check-docs: $(( $(date +%s) - start ))s" >&2
exit $status
