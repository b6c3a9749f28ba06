#!/usr/bin/env bash
# Compiles the code files of the DocC tutorial (Documentation/FirstApp.docc), runs its tests and
# compares the app's printed output with the output the tutorial shows, so that no step can show
# code that does not build.
#
# Usage:
#   Scripts/check-tutorial.sh
#
# How the tutorial's files are read:
#   - every `@Code(name: "<file shown>", file: "<resource>")` of the catalog's `.tutorial` files, in
#     the order they appear, is one step's version of the file named `<file shown>`; a file keeps
#     its last version until a later step shows it again (DocC shows the steps that way too);
#   - `main.swift` is the app's entry point, names ending in `Tests.swift` are test files, and a
#     resource ending in `-output.txt` is what the app prints when it runs, shown beside the last
#     version of `main.swift`;
#   - every `.swift` file in Resources/ must be shown by a step (no stale step file);
#   - Resources/todo-screen.svg, the chapter's picture, is drawn by this script from the output
#     the tutorial shows (which the app must print); a committed picture that differs fails.
#
# What is checked (a scratch package in .build-tutorial/, git-ignored, depends on the root package
# by path, so its build cache stays there and a second run recompiles only the tutorial):
#   - `TodoApp`, an executable target with the last version of every app file, and `TodoAppTests`,
#     its test target (`@testable import TodoApp`): built, the app run and its output compared with
#     the tutorial's, the tests run with `swift test`;
#   - `TodoAppMainActor`: the same files (tests included, in the same module) built with an Xcode
#     app target's settings: default isolation MainActor and the approachable-concurrency features;
#   - `Step<NN>`: the files as they stand after step NN (the tutorial's own numbering, counted over
#     the whole tutorial), for every step after which some file is not yet at its last version, so
#     the earlier versions compile too (built only; in one module, so test files lose their
#     `@testable import TodoApp` line, replaced by a blank line).
#   - every type, function and test of the last files (not main.swift) is declared with the same
#     code in Guides/FirstApp.md (comments and blank lines aside): one app, told twice, kept equal;
#   - `docc convert` of the catalog with warnings as errors, into .build-tutorial/site;
#   - `#sourceLocation` at the top of each copied file makes compiler errors and failed `#expect`s
#     name the resource file in Documentation/ directly.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CATALOG="Documentation/FirstApp.docc"
SCRATCH="$ROOT/.build-tutorial"
cd "$ROOT"

start=$(date +%s)
mkdir -p "$SCRATCH"

# Generate the scratch package. Prints one "<target> <kind> <description>" line per target.
python3 - "$ROOT" "$CATALOG" "$SCRATCH" > "$SCRATCH/targets.txt" <<'PY'
import glob, os, re, shutil, sys

root, catalog, scratch = sys.argv[1], sys.argv[2], sys.argv[3]
resources = os.path.join(catalog, "Resources")
CODE = re.compile(r'@Code\(\s*name:\s*"([^"]+)"\s*,\s*file:\s*"([^"]+)"\s*\)')

steps = []  # (name shown, resource file), in tutorial order
for tutorial in sorted(glob.glob(os.path.join(root, catalog, "**", "*.tutorial"), recursive=True)):
    for m in CODE.finditer(open(tutorial, encoding="utf-8").read()):
        steps.append((m.group(1), m.group(2)))
if not steps:
    sys.exit("check-tutorial: no @Code in %s" % catalog)

errors = []
for _, f in steps:
    if not os.path.isfile(os.path.join(root, resources, f)):
        errors.append("a step shows %s, which is not in %s" % (f, resources))
shown = {f for _, f in steps}
for path in sorted(glob.glob(os.path.join(root, resources, "*.swift"))):
    if os.path.basename(path) not in shown:
        errors.append("%s is shown by no step" % os.path.relpath(path, root))
if errors:
    sys.exit("\n".join("check-tutorial: " + e for e in errors))

def is_output(f): return f.endswith("-output.txt")
def is_test(name): return name.endswith("Tests.swift")

states = []  # the files after each step: name -> resource
current = {}
for name, f in steps:
    if is_output(f):
        states.append(dict(current))
        continue
    current[name] = f
    states.append(dict(current))
final = current
if "main.swift" not in final:
    sys.exit("check-tutorial: no step shows main.swift")

# the output shown after the last version of main.swift
output = None
for k, (name, f) in enumerate(steps):
    if is_output(f) and states[k].get("main.swift") == final["main.swift"]:
        output = f

src = os.path.join(scratch, "Sources")
if os.path.isdir(src):
    shutil.rmtree(src)
os.makedirs(src)

def copy(target, files, strip_testable):
    d = os.path.join(src, target)
    os.makedirs(d)
    for name, f in sorted(files.items()):
        rel = os.path.join(resources, f)
        lines = open(os.path.join(root, rel), encoding="utf-8").read().split("\n")
        if strip_testable:
            lines = ["" if re.match(r'^\s*@testable\s+import\s+TodoApp\s*$', l) else l for l in lines]
        text = '#sourceLocation(file: "%s", line: 1)\n' % rel + "\n".join(lines)
        open(os.path.join(d, name), "w", encoding="utf-8").write(text)

# the last version of each file but main.swift, for the comparison with the guide
open(os.path.join(scratch, "final-files.txt"), "w").write(
    "".join(os.path.join(resources, f) + "\n" for n, f in sorted(final.items()) if n != "main.swift"))

app = {n: f for n, f in final.items() if not is_test(n)}
tests = {n: f for n, f in final.items() if is_test(n)}
copy("TodoApp", app, False)
copy("TodoAppTests", tests, False)
copy("TodoAppMainActor", final, True)
print("TodoApp app the last version of every app file")
print("TodoAppMainActor build the last version of every file, default isolation MainActor")

snapshots = []
for k, state in enumerate(states):
    if is_output(steps[k][1]) or all(final[n] == f for n, f in state.items()):
        continue
    target = "Step%02d" % (k + 1)
    copy(target, state, True)
    snapshots.append((target, "main.swift" in state))
    print(target, "build", "after step %d: %s" % (k + 1, ", ".join(state[n] for n in sorted(state))))

products = ["Streams", "Differentiator", "StreamsTesting", "StreamsBlocking", "ObjectStore", "Repository", "HeadlessUI", "MVVM"]
def deps(names): return ", ".join('.product(name: "%s", package: "ReactiveMVVM")' % p for p in names)
main_actor = ('swiftSettings: [.defaultIsolation(MainActor.self), '
              '.enableUpcomingFeature("NonisolatedNonsendingByDefault"), '
              '.enableUpcomingFeature("InferIsolatedConformances")]')
manifest = [
    "// swift-tools-version: 6.2",
    "// Generated by Scripts/check-tutorial.sh from %s. Do not edit." % catalog,
    "import PackageDescription",
    "let package = Package(",
    '    name: "TutorialSteps",',
    "    platforms: [.macOS(.v15), .iOS(.v18)],",
    '    dependencies: [.package(name: "ReactiveMVVM", path: "..")],',
    "    targets: [",
    # the products the tutorial's app and test targets depend on
    '        .executableTarget(name: "TodoApp", dependencies: [%s]),' % deps(["Streams", "Differentiator", "ObjectStore", "Repository", "HeadlessUI", "MVVM"]),
    '        .testTarget(name: "TodoAppTests", dependencies: ["TodoApp", %s]),' % deps(["StreamsTesting", "StreamsBlocking"]),
    '        .executableTarget(name: "TodoAppMainActor", dependencies: [%s], %s),' % (deps(products), main_actor),
]
for target, has_main in snapshots:
    kind = "executableTarget" if has_main else "target"
    manifest.append('        .%s(name: "%s", dependencies: [%s]),' % (kind, target, deps(products)))
manifest += ["    ],", "    swiftLanguageModes: [.v6]", ")"]
new = "\n".join(manifest) + "\n"
path = os.path.join(scratch, "Package.swift")
if not os.path.exists(path) or open(path).read() != new:
    open(path, "w").write(new)
expected = os.path.join(scratch, "expected-output.txt")
if output:
    shutil.copyfile(os.path.join(root, resources, output), expected)
elif os.path.exists(expected):
    os.remove(expected)

# The chapter's picture: the screen as the app prints it, drawn as a text SVG, so that the picture
# shows what the app (checked below) prints.
if output:
    from xml.sax.saxutils import escape
    lines = open(os.path.join(root, resources, output), encoding="utf-8").read().rstrip("\n").split("\n")
    char_w, line_h, pad = 8.4, 20, 24
    width = int(max(len(l) for l in lines) * char_w + 2 * pad)
    height = len(lines) * line_h + 2 * pad
    svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img">'
           % (width, height, width, height),
           "  <title>The todo list screen, as the tutorial's app prints it</title>",
           '  <rect x="1" y="1" width="%d" height="%d" rx="14" fill="#fbfbfd" stroke="#8e8e93" stroke-width="2"/>'
           % (width - 2, height - 2)]
    for i, l in enumerate(lines):
        svg.append('  <text x="%d" y="%d" font-family="Menlo, DejaVu Sans Mono, monospace" font-size="14" '
                   'fill="#1d1d1f" xml:space="preserve">%s</text>' % (pad, pad + 14 + i * line_h, escape(l)))
    svg.append("</svg>")
    open(os.path.join(root, resources, "todo-screen.svg"), "w", encoding="utf-8").write("\n".join(svg) + "\n")
PY

failed=0
# One app, told twice: every type, function and test the tutorial's last files declare must be
# declared in Guides/FirstApp.md with the same code (comments and blank lines aside), so that the
# guide and the tutorial cannot drift apart. (main.swift is top-level code, not compared.)
if ! python3 - "$ROOT" "$CATALOG" "$SCRATCH/final-files.txt" <<'PY'
import os, re, sys

root, catalog, listing = sys.argv[1], sys.argv[2], sys.argv[3]
START = re.compile(r'^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|final)\s+)*'
                   r'(?:struct|class|enum|protocol|extension|actor|func)\s+(\w+)')

def code(line):  # a line without its string literals and comment, for counting braces
    line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
    return re.sub(r'//.*$', '', line)

def declarations(lines):
    """{name: normalised code} of the top-level declarations (with their attributes)."""
    found, k, n = {}, 0, len(lines)
    attributes = []
    while k < n:
        text = lines[k].strip()
        if re.match(r'^@\w+(\(.*\))?$', text):
            attributes.append(text); k += 1; continue
        m = START.match(text)
        if not m:
            attributes = []; k += 1; continue
        body, depth = list(attributes), 0
        while k < n:
            body.append(lines[k].rstrip())
            depth += code(lines[k]).count("{") - code(lines[k]).count("}")
            k += 1
            if depth <= 0 and "{" in "".join(code(l) for l in body):
                break
        found[m.group(1)] = "\n".join(l for l in body if l.strip() and not l.strip().startswith("//"))
        attributes = []
    return found

guide_lines, inside = [], False
for line in open(os.path.join(root, "Guides/FirstApp.md"), encoding="utf-8").read().split("\n"):
    if line.startswith("```"):
        inside = line.startswith("```swift") and "no-check" not in line
        continue
    if inside:
        guide_lines.append(line)
guide = declarations(guide_lines)

bad, compared = False, 0
for rel in open(listing).read().split():
    mine = declarations(open(os.path.join(root, rel), encoding="utf-8").read().split("\n"))
    for name, text in mine.items():
        compared += 1
        if name not in guide:
            bad = True
            print("FAIL %s declares %s, which Guides/FirstApp.md does not" % (rel, name))
        elif guide[name] != text:
            bad = True
            print("FAIL %s: %s differs from Guides/FirstApp.md's (comments and blank lines aside)" % (rel, name))
if not bad:
    print("ok   the tutorial's last files declare what Guides/FirstApp.md declares, with the same code (%d declarations)" % compared)
sys.exit(1 if bad else 0)
PY
then
    failed=1
fi

# The picture is generated: it must be the one committed.
picture="$CATALOG/Resources/todo-screen.svg"
if git ls-files --error-unmatch "$picture" >/dev/null 2>&1 && ! git diff --quiet -- "$picture"; then
    echo "FAIL $picture is not what the tutorial's output draws (regenerated now: commit it)"
    failed=1
fi

report_errors() {  # the errors of a build log, which name the tutorial's resource files
    grep -E "^[^ ]*\.swift:[0-9]+:[0-9]+: error:" "$1" | awk '!seen[$0]++' | sed 's/^/    /' \
        || tail -20 "$1" | sed 's/^/    /'
}

TIMEOUT=()
if command -v timeout >/dev/null; then TIMEOUT=(timeout 120); fi
while read -r target kind description; do
    log="$SCRATCH/$target.build.log"
    if [[ "$kind" == app ]]; then
        if ! swift build --package-path "$SCRATCH" --product "$target" >"$log" 2>&1; then
            failed=1
            echo "FAIL $target ($description): does not compile"
            report_errors "$log"
            continue
        fi
        bin="$(swift build --package-path "$SCRATCH" --show-bin-path)/$target"
        out="$SCRATCH/$target.out"
        if ! (cd "$SCRATCH" && ${TIMEOUT[@]+"${TIMEOUT[@]}"} "$bin" >"$out" 2>&1); then
            failed=1
            echo "FAIL $target: running the app failed (exit status, crash or timeout)"
            tail -20 "$out" | sed 's/^/    /'
            continue
        fi
        if [[ -f "$SCRATCH/expected-output.txt" ]]; then
            if ! diff -u "$SCRATCH/expected-output.txt" "$out" >"$SCRATCH/output.diff"; then
                failed=1
                echo "FAIL $target: what it prints differs from the output the tutorial shows"
                sed 's/^/    /' "$SCRATCH/output.diff"
                continue
            fi
            echo "ok   $target ($description): compiles, runs, prints the output the tutorial shows"
        else
            echo "ok   $target ($description): compiles and runs"
        fi
    else
        if ! swift build --package-path "$SCRATCH" --target "$target" >"$log" 2>&1; then
            failed=1
            echo "FAIL $target ($description): does not compile"
            report_errors "$log"
            # keep it out of the build of the tests below, so that they still run
            sed -i.bak "/name: \"$target\"/d" "$SCRATCH/Package.swift" && rm -f "$SCRATCH/Package.swift.bak"
            continue
        fi
        echo "ok   $target ($description)"
    fi
done < "$SCRATCH/targets.txt"
built=$(date +%s)

log="$SCRATCH/tests.log"
if ! swift build --package-path "$SCRATCH" --build-tests >"$log" 2>&1; then
    failed=1
    echo "FAIL building the tutorial's tests"
    report_errors "$log"
elif ! swift test --package-path "$SCRATCH" --skip-build --no-parallel >"$log" 2>&1; then
    failed=1
    echo "FAIL the tutorial's tests:"
    grep -E "✘|recorded an issue|Expectation failed|error:" "$log" | sed 's/^/    /' || tail -30 "$log" | sed 's/^/    /'
else
    echo "ok   the tutorial's tests: $(grep -Eo "Test run with [0-9]+ tests?" "$log" | head -1 | grep -Eo "[0-9]+ tests?")"
fi

# The catalog itself: DocC reads every directive, step file and picture, any warning fails it.
# DocC builds in a temporary folder and moves it to the output path: keep that folder in the scratch
# folder (TMPDIR), out of the way of other processes cleaning the system's temporary folder.
site="$SCRATCH/site"
rm -rf "$site" "$SCRATCH/tmp"
mkdir -p "$SCRATCH/tmp"
if ! TMPDIR="$SCRATCH/tmp" docc convert "$CATALOG" --warnings-as-errors --transform-for-static-hosting \
        --output-path "$site" >"$SCRATCH/docc.log" 2>&1; then
    failed=1
    echo "FAIL docc convert $CATALOG:"
    sed 's/^/    /' "$SCRATCH/docc.log"
else
    echo "ok   docc convert $CATALOG, no warning (static site in ${site#"$ROOT"/})"
fi

echo "check-tutorial: $(( $(date +%s) - start ))s (builds: $(( built - start ))s, tests: $(( $(date +%s) - built ))s)"
exit $failed
