#!/usr/bin/env bash
# Builds and runs the libFuzzer targets in Fuzz/Targets for a bounded time each.
#
#   Scripts/fuzz.sh                     # every target, 20 s each (the CI pass)
#   Scripts/fuzz.sh --seconds 600       # every target, 10 min each
#   Scripts/fuzz.sh --seconds 60 marbles
#
# Each target is Fuzz/Targets/<name>.swift, compiled with `swiftc -sanitize=fuzzer,address`
# against the library modules it needs (compiled from Sources/ into .build-fuzz/, git-ignored).
# The seed corpus is Fuzz/Corpus/<name>/ (read only); new inputs go to .build-fuzz/corpus/<name>/.
# A crash leaves .build-fuzz/crash-<name>-* and makes the script exit non-zero: add the input as
# a regression test in the test file of the code it hits and a seed in Fuzz/Corpus/<name>/.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=20
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --seconds=*) seconds="${1#*=}"; shift ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) targets+=("$1"); shift ;;
    esac
done
if [ ${#targets[@]} -eq 0 ]; then
    for file in Fuzz/Targets/*.swift; do targets+=("$(basename "$file" .swift)"); done
fi

swiftc=${SWIFTC:-swiftc}
out=.build-fuzz
mkdir -p "$out"
flags=(-sanitize=fuzzer,address -parse-as-library -Onone -swift-version 6 -package-name ReactiveMVVM
       -I Sources/CRC32CHardware/include)

# module name → its sources and the modules it imports
build_module() {
    local name="$1"
    if [ -d "Sources/$name/include" ]; then
        # A C target (its module map is in include/, which every Swift compile below sees).
        local stamp="$out/$name.o"
        if [ -f "$stamp" ] && [ -z "$(find "Sources/$name" -newer "$stamp")" ]; then return; fi
        echo "fuzz: compiling C module $name"
        "${CLANG:-clang}" -c -O2 -fsanitize=address -I "Sources/$name/include" Sources/"$name"/*.c -o "$stamp"
        return
    fi
    local sources
    sources=$(find "Sources/$name" -name '*.swift' | sort)
    local stamp="$out/$name.o"
    if [ -f "$stamp" ] && [ -z "$(find "Sources/$name" -name '*.swift' -newer "$stamp")" ]; then return; fi
    echo "fuzz: compiling module $name"
    # shellcheck disable=SC2086
    "$swiftc" "${flags[@]}" -wmo -module-name "$name" -I "$out" \
        -emit-module -emit-module-path "$out/$name.swiftmodule" -c $sources -o "$out/$name.o"
}

# The modules each target links (in dependency order).
modules_for() {
    case "$1" in
        marbles) echo "Locking Streams StreamsTesting" ;;
        query) echo "Locking Streams Differentiator CRC32CHardware ObjectStore" ;;
        mapper) echo "Locking Streams Differentiator CRC32CHardware ObjectStore Repository" ;;
        storefile) echo "Locking Streams Differentiator CRC32CHardware ObjectStore" ;;
        rowpage) echo "Locking Streams Differentiator CRC32CHardware ObjectStore" ;;
        *) echo "Locking Streams" ;;
    esac
}

status=0
for target in "${targets[@]}"; do
    source_file="Fuzz/Targets/$target.swift"
    [ -f "$source_file" ] || { echo "fuzz: no target $source_file" >&2; exit 2; }
    objects=()
    for module in $(modules_for "$target"); do
        build_module "$module"
        objects+=("$out/$module.o")
    done
    binary="$out/fuzz-$target"
    if [ ! -x "$binary" ] || [ "$source_file" -nt "$binary" ] || [ -n "$(find "${objects[@]}" -newer "$binary")" ]; then
        echo "fuzz: linking $binary"
        # (ld.gold warns about every ASan helper symbol; keep that out of the way unless linking fails)
        "$swiftc" "${flags[@]}" -I "$out" "$source_file" "${objects[@]}" -o "$binary" 2>"$out/link-$target.log" \
            || { cat "$out/link-$target.log" >&2; exit 1; }
    fi
    corpus="$out/corpus/$target"
    mkdir -p "$corpus" "Fuzz/Corpus/$target"
    echo "fuzz: running $target for ${seconds}s"
    if ! "$binary" "$corpus" "Fuzz/Corpus/$target" \
        -max_total_time="$seconds" -timeout=5 -max_len=4096 -rss_limit_mb=2048 \
        -artifact_prefix="$out/crash-$target-" -print_final_stats=1 2>"$out/$target.log"; then
        echo "fuzz: $target FAILED, see $out/$target.log and $out/crash-$target-*" >&2
        tail -40 "$out/$target.log" >&2
        status=1
    else
        grep -E "^stat::number_of_executed_units|^stat::new_units_added" "$out/$target.log" | sed "s/^/fuzz: $target /"
    fi
done
exit $status
