#!/usr/bin/env bash
# Builds the DocC reference of every library module as a static site, warnings as errors.
#
# Usage:
#   Scripts/docs.sh                    # every library module
#   Scripts/docs.sh Streams MVVM       # some modules only
#   DOCS_SKIP_BUILD=1 Scripts/docs.sh  # reuse the symbol graphs of the last run
#
# Then open it:
#   python3 -m http.server 8000 --directory .build-docs/site
#   http://127.0.0.1:8000/                              (an index of the modules)
#   http://127.0.0.1:8000/Streams/documentation/streams (a module's reference)
#
# How (no network, no package dependency: `docc` and `swift-symbolgraph-extract` ship with the
# toolchain):
#   1. `swift build` of the library modules (debug, reusing .build/), then
#      swift-symbolgraph-extract of each one into .build-docs/symbol-graphs/, public and open
#      symbols, without the members a type only inherits (as Scripts/check-docs.sh does);
#   2. Scripts/docc-topics.py stages each catalog into .build-docs/catalogs/<Module>.docc: the
#      hand-written Sources/<Module>/<Module>.docc, plus what is generated: the topic groups of
#      every public symbol, the guides of Guides/ as articles (the guides stay where they are and
#      Scripts/check-guides.sh keeps compiling them) and the SVG marble diagrams
#      (Scripts/marbles.py) on the operators' pages;
#   3. `docc convert` of each staged catalog with --warnings-as-errors (an unresolved link, a
#      topic that names nothing, a missing image fail it) and --transform-for-static-hosting,
#      into .build-docs/site/<Module>/ (hosting base path /<Module>);
#   4. a check of docc's output: every symbol page is in one of the generated topic groups, and
#      DocC made none of its own but its links to a type's protocol implementations;
#   5. any tutorial catalog Documentation/*.docc (its own `@Tutorials` table of contents) is
#      converted the same way into .build-docs/site/<name>/.
# Everything is written under .build-docs/ (git-ignored).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

MODULES=("$@")
[[ ${#MODULES[@]} -gt 0 ]] || MODULES=(Streams StreamsTesting StreamsBlocking ObjectStore Repository Differentiator HeadlessUI MVVM StreamsObservation)

OUT="$ROOT/.build-docs"
GRAPHS="$OUT/symbol-graphs"
STAGE="$OUT/catalogs"
SITE="$OUT/site"
start=$(date +%s)
lap() { echo "docs: $1 ($(( $(date +%s) - start ))s)"; }

if [[ -z "${DOCS_SKIP_BUILD:-}" ]]; then
    log="$(mktemp)"
    for module in "${MODULES[@]}"; do
        if ! swift build --target "$module" >"$log" 2>&1; then
            cat "$log" >&2; rm -f "$log"
            echo "docs: swift build --target $module failed" >&2
            exit 2
        fi
    done
    rm -f "$log"
    lap "built"
    BIN="$(swift build --show-bin-path)"
    rm -rf "$GRAPHS"; mkdir -p "$GRAPHS"
    TRIPLE="$(swift -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["unversionedTriple"])')"
    SDK=()
    if [[ "$(uname)" == Darwin ]]; then SDK=(-sdk "$(xcrun --show-sdk-path)"); fi
    CMODULES=()
    for include in Sources/*/include; do [[ -d "$include" ]] && CMODULES+=(-I "$ROOT/$include"); done
    for module in "${MODULES[@]}"; do
        swift-symbolgraph-extract -module-name "$module" -target "$TRIPLE" "${SDK[@]}" \
            -I "$BIN/Modules" "${CMODULES[@]}" -module-cache-path "$BIN/ModuleCache" \
            -minimum-access-level public -skip-synthesized-members -emit-extension-block-symbols -output-dir "$GRAPHS"
    done
    lap "symbol graphs extracted"
fi

rm -rf "$STAGE"; mkdir -p "$STAGE" "$SITE"
python3 Scripts/docc-topics.py --graphs "$GRAPHS" --stage "$STAGE" "${MODULES[@]}"

convert() {  # convert <catalog> <name> [symbol graph dir]
    local catalog="$1" name="$2" graphs="${3:-}"
    local log; log="$(mktemp)"
    local args=("$catalog" --fallback-display-name "$name" --fallback-bundle-identifier "reactivemvvm.$name"
                --output-path "$SITE/$name" --transform-for-static-hosting --hosting-base-path "$name"
                --warnings-as-errors --emit-digest)
    if [[ -n "$graphs" ]]; then
        local only="$OUT/graphs-$name"
        rm -rf "$only"; mkdir -p "$only"
        cp "$graphs/$name.symbols.json" "$only/"
        for extra in "$graphs/$name@"*.symbols.json; do [[ -f "$extra" ]] && cp "$extra" "$only/"; done
        args+=(--additional-symbol-graph-dir "$only")
    fi
    rm -rf "$SITE/$name"
    if ! docc convert "${args[@]}" >"$log" 2>&1; then
        cat "$log" >&2; rm -f "$log"
        echo "docs: docc convert of $name failed" >&2
        return 1
    fi
    if grep -E "warning:|error:" "$log" >&2; then
        rm -f "$log"; echo "docs: docc reported problems for $name" >&2; return 1
    fi
    rm -f "$log"
    # DocC's pages ask for an optional theme file; an empty one means the default theme (and no
    # failed request in the browser's console).
    [[ -f "$SITE/$name/theme-settings.json" ]] || echo '{}' > "$SITE/$name/theme-settings.json"
}

failed=()
for module in "${MODULES[@]}"; do
    if convert "$STAGE/$module.docc" "$module" "$GRAPHS"; then lap "$module converted"; else failed+=("$module"); fi
done

# The tutorials: every catalog under Documentation/ is a site of its own.
shopt -s nullglob
TUTORIALS=()
for catalog in Documentation/*.docc; do
    name="$(basename "$catalog" .docc)"
    if convert "$ROOT/$catalog" "$name"; then lap "$name converted"; else failed+=("$name"); fi
    TUTORIALS+=("$name")
done
shopt -u nullglob
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "docs: docc failed for ${failed[*]}" >&2
    exit 1
fi

# Every symbol page is listed in a topic group of ours (generated by Scripts/docc-topics.py), and
# DocC made no topic group of its own but one kind: "Default Implementations", which DocC adds to
# a type that implements a protocol's requirements, linking to pages it makes
# (`Equatable-Implementations`) that list those members again; they are curated in our groups too.
python3 - "$SITE" "${MODULES[@]}" <<'PY'
import glob, json, os, sys
site, modules = sys.argv[1], sys.argv[2:]
problems = []
pages = symbols = 0
for module in modules:
    curated, symbol_pages, implementation_pages = set(), {}, set()
    for path in glob.glob(os.path.join(site, module, "data", "documentation", "**", "*.json"), recursive=True):
        pages += 1
        node = json.load(open(path))
        ident = node["identifier"]["url"]
        if ident.endswith("-Implementations"):
            implementation_pages.add(ident)
        elif node.get("kind") == "symbol" and node.get("metadata", {}).get("role") != "collection":
            symbol_pages[ident] = os.path.relpath(path, site)
        for section in node.get("topicSections", []):
            ids = section.get("identifiers", [])
            if not section.get("generated"):
                curated.update(ids)
            elif not ident.endswith("-Implementations") and not (
                    section.get("title") == "Default Implementations" and all(i.endswith("-Implementations") for i in ids)):
                problems.append("%s: automatic group %r: %s" % (os.path.relpath(path, site), section.get("title"), ", ".join(ids)[:300]))
    module_page = "doc://reactivemvvm.%s/documentation/%s" % (module, module)
    for ident, path in sorted(symbol_pages.items()):
        symbols += 1
        if ident != module_page and ident not in curated:
            problems.append("%s: %s is in no topic group" % (path, ident))
for p in problems:
    print("docs: " + p, file=sys.stderr)
print("docs: %d pages, %d symbol pages; %d symbols outside the topic groups or in DocC's automatic groups" % (pages, symbols, len(problems)))
sys.exit(1 if problems else 0)
PY

# Links from one site to another (a guide's link to a guide of another module), which DocC
# cannot check: the page and the heading must exist.
python3 - "$SITE" "$STAGE" <<'PY'
import glob, json, os, re, sys
site, stage = sys.argv[1], sys.argv[2]
problems, count = [], 0
for md in glob.glob(os.path.join(stage, "**", "*.md"), recursive=True):
    for n, line in enumerate(open(md), 1):
        for path, anchor in re.findall(r'\]\((/[A-Za-z]+/documentation/[^)#\s]+)(?:#([^)\s]+))?\)', line):
            count += 1
            module, rest = path.strip("/").split("/", 1)
            page = os.path.join(site, module, "data", rest + ".json")
            where = "%s:%d: %s" % (os.path.relpath(md, stage), n, path + ("#" + anchor if anchor else ""))
            if not os.path.exists(page):
                problems.append(where + ": no such page")
            elif anchor and anchor not in {a for a in re.findall(r'"anchor"\s*:\s*"([^"]*)"', open(page).read())}:
                problems.append(where + ": no such heading")
for p in problems:
    print("docs: " + p, file=sys.stderr)
print("docs: %d links between sites, %d broken" % (count, len(problems)))
sys.exit(1 if problems else 0)
PY

# A front page listing the sites.
{
    echo '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>ReactiveMVVM documentation</title></head><body>'
    echo '<h1>ReactiveMVVM documentation</h1><ul>'
    for module in "${MODULES[@]}"; do
        echo "<li><a href=\"$module/documentation/$(echo "$module" | tr '[:upper:]' '[:lower:]')/\">$module</a></li>"
    done
    for name in "${TUTORIALS[@]}"; do
        echo "<li><a href=\"$name/tutorials/\">$name (tutorial)</a></li>"
    done
    echo '</ul></body></html>'
} > "$SITE/index.html"

lap "done: open with python3 -m http.server 8000 --directory .build-docs/site, then http://127.0.0.1:8000/"
