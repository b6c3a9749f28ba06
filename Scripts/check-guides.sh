#!/usr/bin/env bash
# Compiles every ```swift block of Guides/*.md and README.md against the library, runs the blocks
# that state an expected output and compares it. The conventions for guide writers are at the top
# of Guides/README.md.
#
# Usage:
#   Scripts/check-guides.sh                     # every guide and README.md
#   Scripts/check-guides.sh Guides/Streams.md   # one (or several) guides only
#
# How it works (designed for speed on a 2-core machine, no network):
#   - one generated scratch package in .build-guides/ (git-ignored) depends on the root package by
#     path; its build cache stays there, so a second run only recompiles the guides that changed;
#   - per guide, a library target `Guide_<Name>Blocks` with one source file per block
#     (`Guide_Streams…` for Guides/Streams.md, `Guide_RootREADME…` for README.md), an executable
#     `Guide_<Name>` that runs the blocks, and, when the guide has `@Test` functions, a test target;
#   - in a block, top-level declarations (import, struct, class, enum, protocol, extension, actor,
#     typealias, func, with their attributes) are hoisted to file scope, shared by every block of
#     that guide; the remaining statements become the body of
#     `@MainActor public func block_L<line>() async throws`, so `let`s stay local to their block;
#   - every file imports every module any block of the guide imports;
#   - `#sourceLocation` maps generated lines back to the Markdown, so compiler errors and failed
#     `#expect`s name the guide file and line directly;
#   - the executable runs, in order, only the blocks with an expected output, printing a marker
#     before each; the script splits the output and compares it block by block;
#   - a copy of each guide's blocks, `Guide_<Name>BlocksMainActor`, is built (not run) with the
#     settings of an Xcode app target: default isolation MainActor and the approachable-concurrency
#     upcoming features (NonisolatedNonsendingByDefault, InferIsolatedConformances), so every
#     block compiles both in a plain Swift 6 target and in an app target;
#   - finally `swift test` runs the `@Test` functions of the guides that compiled, so their
#     `#expect`s are checked too.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SCRATCH="$ROOT/.build-guides"
cd "$ROOT"

if [[ $# -gt 0 ]]; then
    GUIDES=("$@")
else
    GUIDES=(README.md Guides/*.md)
fi
for g in "${GUIDES[@]}"; do
    [[ -f "$g" ]] || { echo "check-guides: no such file: $g" >&2; exit 2; }
done

start=$(date +%s)
mkdir -p "$SCRATCH"

# Generate the scratch package. Prints "<target> <guide>" lines for guides that have blocks.
python3 - "$ROOT" "$SCRATCH" "${GUIDES[@]}" > "$SCRATCH/targets.txt" <<'PY'
import json, os, re, shutil, sys

root, scratch, guides = sys.argv[1], sys.argv[2], sys.argv[3:]
src_dir = os.path.join(scratch, "Sources")

DECL = re.compile(r'^(?:@\w+(?:\([^)]*\))?\s+)*'
                  r'(?:(?:public|private|fileprivate|internal|package|final|open|nonisolated|indirect)\s+)*'
                  r'(?:struct|class|enum|protocol|extension|actor|typealias|func|import)\b')
ATTRIBUTE_ONLY = re.compile(r'^@\w+(?:\(.*\))?\s*$')
FENCE = re.compile(r'^```(\S*)\s*(.*)$')

def target_name(path):
    if os.path.normpath(path) == "README.md":
        return "Guide_RootREADME"
    base = os.path.splitext(os.path.basename(path))[0]
    return "Guide_" + re.sub(r'\W', '_', base)

def strip_strings(line):
    line = re.sub(r'#"(?:[^"]|"(?!#))*"#', '""', line)
    line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
    return re.sub(r'//.*$', '', line)

def blocks(path):
    """Yields (first code line number, code lines, expected text lines or None, kind)."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i, n = 0, len(lines)
    found = []
    while i < n:
        m = FENCE.match(lines[i])
        if not m or not m.group(1):
            if m:  # a fence without a language: skip to its end
                i += 1
                while i < n and not lines[i].startswith("```"):
                    i += 1
            i += 1
            continue
        lang, info = m.group(1), m.group(2)
        start = i + 1
        i += 1
        body = []
        while i < n and not lines[i].startswith("```"):
            body.append(lines[i]); i += 1
        i += 1
        if lang != "swift":
            continue
        if "no-check" in info.split():
            continue
        # an expected-output ```text block right after (only blank lines between)?
        j = i
        while j < n and lines[j].strip() == "":
            j += 1
        expected = None
        if j < n and re.match(r'^```text\s*$', lines[j]):
            j += 1
            expected = []
            while j < n and not lines[j].startswith("```"):
                expected.append(lines[j]); j += 1
        else:
            prints = [m2.group(1).rstrip() for l in body
                      for m2 in [re.search(r'//\s*prints\s(.*)$', l)] if m2]
            if prints:
                expected = prints
        found.append((start + 1, body, expected))
    return found

def split(body):
    """Splits a block into (declaration chunks, statement chunks), each a (offset, lines)."""
    decls, stmts = [], []
    depth, k, n = 0, 0, len(body)
    while k < n:
        line = body[k]
        text = line.strip()
        if depth == 0 and text and (DECL.match(text) or ATTRIBUTE_ONLY.match(text)):
            begin = k
            while ATTRIBUTE_ONLY.match(body[k].strip()) and k + 1 < n:
                k += 1
            d = 0
            while True:
                s = strip_strings(body[k])
                d += s.count("{") - s.count("}")
                k += 1
                if d <= 0 or k >= n:
                    break
            decls.append((begin, body[begin:k]))
            continue
        s = strip_strings(line)
        depth = max(0, depth + s.count("{") - s.count("}"))
        if stmts and stmts[-1][0] + len(stmts[-1][1]) == k:
            stmts[-1][1].append(line)
        else:
            stmts.append((k, [line]))
        k += 1
    return decls, stmts

if os.path.isdir(src_dir):
    shutil.rmtree(src_dir)
os.makedirs(src_dir)
manifest_targets = []
for guide in guides:
    found = blocks(os.path.join(root, guide))
    if not found:
        continue
    target = target_name(guide)
    tdir = os.path.join(src_dir, target + "Blocks")
    os.makedirs(tdir)
    os.makedirs(os.path.join(src_dir, target))
    rel = os.path.relpath(os.path.join(root, guide), root)
    imports = sorted({l.strip() for _, body, _ in found for l in body
                      if re.match(r'^\s*(@\w+\s+)?import\s+\w+\s*$', l)})
    main = ["// Generated by Scripts/check-guides.sh from " + rel + ". Do not edit.",
            "import %sBlocks" % target, ""]
    expectations = {}
    for first, body, expected in found:
        name = "block_L%d" % first
        decls, stmts = split(body)
        out = ["// Generated from %s:%d. Do not edit." % (rel, first)]
        out += [i for i in imports if not i.startswith("@")]
        out += [i for i in imports if i.startswith("@")]
        for off, chunk in decls:
            chunk = [l for l in chunk if not re.match(r'^\s*(@\w+\s+)?import\s', l)]
            if not chunk:
                continue
            out.append('#sourceLocation(file: "%s", line: %d)' % (rel, first + off))
            out += chunk
            out.append("#sourceLocation()")
        out.append("@MainActor public func %s() async throws {" % name)
        for off, chunk in stmts:
            out.append('#sourceLocation(file: "%s", line: %d)' % (rel, first + off))
            out += chunk
            out.append("#sourceLocation()")
        out.append("}")
        open(os.path.join(tdir, "L%d.swift" % first), "w").write("\n".join(out) + "\n")
        if expected is not None:
            expectations[first] = expected
            main.append('print("@@guide-block %d")' % first)
            main.append("try await %s()" % name)
    main.append('print("@@guide-end")')
    open(os.path.join(src_dir, target, "main.swift"), "w").write("\n".join(main) + "\n")
    has_tests = any(re.match(r'^\s*@Test\b', l) for _, body, _ in found for l in body)
    if has_tests:
        os.makedirs(os.path.join(src_dir, target + "Tests"))
        open(os.path.join(src_dir, target + "Tests", "Tests.swift"), "w").write(
            "// Runs the @Test functions of %s (they live in %sBlocks).\n@_exported import %sBlocks\n"
            % (rel, target, target))
    # The same blocks again for the second setting (default isolation MainActor), compiled only.
    shutil.copytree(tdir, os.path.join(src_dir, target + "BlocksMainActor"))
    json.dump(expectations, open(os.path.join(scratch, target + ".expected.json"), "w"))
    manifest_targets.append((target, has_tests))
    print(target, rel, "tests" if has_tests else "-")

products = ["Streams", "StreamsTesting", "StreamsBlocking", "ObjectStore", "Repository", "Differentiator", "HeadlessUI", "StreamsObservation", "Pizzaiolo", "Tracks"]
deps = ", ".join('.product(name: "%s", package: "ReactiveMVVM")' % p for p in products)
# The second setting: an Xcode app target's (default isolation MainActor with the approachable
# concurrency features), as `<target>BlocksMainActor`, built but not run.
main_actor = ('swiftSettings: [.defaultIsolation(MainActor.self), '
              '.enableUpcomingFeature("NonisolatedNonsendingByDefault"), '
              '.enableUpcomingFeature("InferIsolatedConformances")]')
manifest = ["// swift-tools-version: 6.2",
            "// Generated by Scripts/check-guides.sh. Do not edit.",
            "import PackageDescription",
            "let package = Package(",
            '    name: "GuideBlocks",',
            "    platforms: [.macOS(.v15), .iOS(.v18)],",
            '    dependencies: [.package(name: "ReactiveMVVM", path: "..")],',
            "    targets: ["]
for t, has_tests in manifest_targets:
    manifest.append('        .target(name: "%sBlocks", dependencies: [%s]),' % (t, deps))
    manifest.append('        .executableTarget(name: "%s", dependencies: ["%sBlocks"]),' % (t, t))
    manifest.append('        .target(name: "%sBlocksMainActor", dependencies: [%s], %s),' % (t, deps, main_actor))
    if has_tests:
        # enabled by the script once the guide compiles
        manifest.append('//T:%s        .testTarget(name: "%sTests", dependencies: ["%sBlocks"]),' % (t, t, t))
manifest += ["    ],", "    swiftLanguageModes: [.v6]", ")"]
new = "\n".join(manifest) + "\n"
path = os.path.join(scratch, "Package.swift")
if not os.path.exists(path) or open(path).read() != new:
    open(path, "w").write(new)
PY

if [[ ! -s "$SCRATCH/targets.txt" ]]; then
    echo "check-guides: no swift blocks found"
    exit 0
fi

TIMEOUT=()
if command -v timeout >/dev/null; then TIMEOUT=(timeout 120); fi
failed=0
testable=()
broken=()
# Build each guide on its own so one broken guide does not hide the others' errors.
while read -r target guide tests; do
    log="$SCRATCH/$target.build.log"
    if ! swift build --package-path "$SCRATCH" --product "$target" >"$log" 2>&1; then
        failed=1
        broken+=("$target")
        echo "FAIL $guide: does not compile"
        # Errors carry the Markdown file and line thanks to #sourceLocation.
        grep -E "^[^ ]*\.(md|swift):[0-9]+:[0-9]+: error:" "$log" | awk '!seen[$0]++' | sed 's/^/    /' \
            || tail -20 "$log" | sed 's/^/    /'
        continue
    fi
    bin="$(swift build --package-path "$SCRATCH" --show-bin-path)/$target"
    out="$SCRATCH/$target.out"
    if ! (cd "$SCRATCH" && ${TIMEOUT[@]+"${TIMEOUT[@]}"} "$bin" >"$out" 2>&1); then
        failed=1
        broken+=("$target")
        echo "FAIL $guide: running the blocks failed (exit status, crash or timeout)"
        tail -20 "$out" | sed 's/^/    /'
        continue
    fi
    if ! python3 - "$SCRATCH/$target.expected.json" "$out" "$guide" <<'PY'
import json, sys
expected = json.load(open(sys.argv[1]))
lines = open(sys.argv[2], encoding="utf-8").read().split("\n")
guide = sys.argv[3]
actual, current = {}, None
for l in lines:
    if l.startswith("@@guide-block "):
        current = l.split()[1]; actual[current] = []
    elif l == "@@guide-end":
        current = None
    elif current is not None:
        actual[current].append(l)
bad = False
for first, want in expected.items():
    got = [l.rstrip() for l in actual.get(first, [])]
    want = [l.rstrip() for l in want]
    while got and got[-1] == "": got.pop()
    while want and want[-1] == "": want.pop()
    if got != want:
        bad = True
        print("FAIL %s:%s: output differs" % (guide, first))
        print("    expected:"); [print("      | " + l) for l in want]
        print("    actual:");   [print("      | " + l) for l in got]
sys.exit(1 if bad else 0)
PY
    then
        failed=1
        continue
    fi
    echo "ok   $guide"
    [[ "$tests" == tests ]] && testable+=("$target")
done < "$SCRATCH/targets.txt"
plain_end=$(date +%s)

# The second setting: every guide's blocks compiled in a target with default isolation MainActor
# and the approachable-concurrency features, as an Xcode app template sets them (built, not run).
while read -r target guide tests; do
    log="$SCRATCH/${target}MainActor.build.log"
    if ! swift build --package-path "$SCRATCH" --target "${target}BlocksMainActor" >"$log" 2>&1; then
        failed=1
        echo "FAIL $guide: does not compile with default isolation MainActor"
        # keep it out of the build of the guides' @Test functions below
        sed -i.bak "/name: \"${target}BlocksMainActor\"/d" "$SCRATCH/Package.swift"
        grep -E "^[^ ]*\.(md|swift):[0-9]+:[0-9]+: error:" "$log" | awk '!seen[$0]++' | sed 's/^/    /' \
            || tail -20 "$log" | sed 's/^/    /'
        continue
    fi
    echo "ok   $guide (default isolation MainActor)"
done < "$SCRATCH/targets.txt"
main_actor_end=$(date +%s)

# Run the guides' @Test functions (their #expect checks), for the guides that compiled.
if [[ ${#testable[@]} -gt 0 ]]; then
    for target in "${testable[@]}"; do
        sed -i.bak "s|^//T:$target ||" "$SCRATCH/Package.swift"
    done
    # leave out the guides that failed, so that they do not stop the others' tests
    for target in ${broken[@]+"${broken[@]}"}; do
        sed -i.bak "/name: \"$target\(Blocks\)\{0,1\}\(MainActor\)\{0,1\}\"/d" "$SCRATCH/Package.swift"
    done
    rm -f "$SCRATCH/Package.swift.bak"
    log="$SCRATCH/tests.log"
    if ! swift build --package-path "$SCRATCH" --build-tests >"$log" 2>&1; then
        failed=1
        echo "FAIL building the guides' @Test functions"
        grep -E "^[^ ]*\.(md|swift):[0-9]+:[0-9]+: error:" "$log" | awk '!seen[$0]++' | sed 's/^/    /' || tail -20 "$log" | sed 's/^/    /'
    elif ! swift test --package-path "$SCRATCH" --skip-build --no-parallel >"$log" 2>&1; then
        failed=1
        echo "FAIL @Test functions in the guides:"
        grep -E "✘|recorded an issue|Expectation failed|error:" "$log" | sed 's/^/    /' || tail -30 "$log" | sed 's/^/    /'
    else
        echo "ok   @Test functions: $(grep -Eo "Test run with [0-9]+ tests?" "$log" | head -1 | grep -Eo "[0-9]+ tests?")"
    fi
fi

echo "check-guides: $(( $(date +%s) - start ))s (plain Swift 6: $(( plain_end - start ))s, default isolation MainActor: $(( main_actor_end - plain_end ))s)"
exit $failed
