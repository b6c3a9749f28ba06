#!/usr/bin/env bash
# Builds and runs the ReactiveMVVM benchmarks (release) and writes Guides/Performance.md.
#
#   Benchmarks/run.sh           the full run (about 20 to 30 minutes on 2 cores); rewrites Guides/Performance.md
#   Benchmarks/run.sh --smoke   builds and runs every benchmark for a moment, checks that each
#                               scenario produced figures, prints them; writes nothing (for CI)
#
# Extra arguments after the mode go to `swift package benchmark` (e.g. --filter 'Subject.*').
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$here"

mode=full
if [[ "${1:-}" == "--smoke" ]]; then
    mode=smoke
    shift
fi

# SwiftPM names a path dependency after its folder; if the repository's folder is called
# "benchmarks" it collides with this package, so build against a mirror of the library instead.
if [[ "$(basename "$root" | tr '[:upper:]' '[:lower:]')" == "benchmarks" ]]; then
    mirror="$here/.build/library-mirror/ReactiveMVVM"
    rm -rf "$mirror"
    mkdir -p "$mirror"
    cp -a "$root/Package.swift" "$root/Sources" "$root/Tests" "$mirror/"
    export REACTIVEMVVM_ROOT="$mirror"
fi

suites=(StreamsBenchmarks ObjectStoreBenchmarks HeadlessUIBenchmarks StreamsObservationBenchmarks)

# The ObjectStore scale probe (Benchmarks/ObjectStoreBenchmarks/ScaleProbe.swift): for each
# count, fill a file with ours and with GRDB, then open it and count, and open, count and read
# 1,000 objects by primary key; then fill a file with an index on the price and count the pizzas
# of one price; each step in a fresh process, appending one JSON line per step.
scale_probe() {
    local out="$1"
    shift
    local probe="$here/.build/release/ObjectStoreBenchmarks"
    local dir
    dir="$(mktemp -d)"
    : > "$out"
    for count in "$@"; do
        for flavour in ours grdb; do
            local file="$dir/$flavour-$count.db"
            STORE_SCALE_PROBE="write $flavour $count $file" "$probe" >/dev/null
            # Open a file at rest: the kernel's write-back of the file just written would
            # otherwise compete with the first opening for the disk and the processors.
            sync
            # Each step five times, each in a fresh process; report.py keeps the fastest.
            for _ in 1 2 3 4 5; do
                STORE_SCALE_PROBE="open $flavour $file" "$probe" >> "$out"
                STORE_SCALE_PROBE="read $flavour $file 1000" "$probe" >> "$out"
            done
            # The same pizzas with an index on their price: the first query by it.
            local indexed="$dir/$flavour-$count-indexed.db"
            STORE_SCALE_PROBE="write-indexed $flavour $count $indexed" "$probe" >/dev/null
            sync
            for _ in 1 2 3 4 5; do
                STORE_SCALE_PROBE="query $flavour $indexed" "$probe" >> "$out"
            done
        done
    done
    rm -rf "$dir"
}

# The ObjectStore reader-wait probe (Benchmarks/ObjectStoreBenchmarks/ReaderWait.swift): fill
# a file of COUNT notes with each flavour; open each file and count its notes in a fresh
# process, OPENS times, the two flavours taking turns; then, for each flavour, RUNS times in a
# fresh process read on one thread while another commits 5 transactions of PER_COMMIT updates.
# One JSON line per open and per run.
reader_probe() {
    local out="$1" count="$2" per_commit="$3" runs="$4" opens="$5"
    local probe="$here/.build/release/ObjectStoreBenchmarks"
    local dir
    dir="$(mktemp -d)"
    : > "$out"
    for flavour in ours grdb; do
        STORE_READER_PROBE="write $flavour $count $dir/$flavour-notes.db" "$probe" >/dev/null
    done
    sync
    for _ in $(seq "$opens"); do
        for flavour in ours grdb; do
            STORE_READER_PROBE="open $flavour $dir/$flavour-notes.db" "$probe" >> "$out"
        done
    done
    for flavour in ours grdb; do
        local file="$dir/$flavour-notes.db"
        for _ in $(seq "$runs"); do
            cp "$file" "$file.run"
            STORE_READER_PROBE="readers $flavour $file.run $per_commit" "$probe" >> "$out"
            rm -f "$file.run" "$file.run-wal" "$file.run-shm"
        done
    done
    rm -rf "$dir"
}

# The reader-wait probe's in-process step (ReaderWaitInProcess.swift): RUNS times, the two
# flavours taking turns, a fresh process fills a file with COUNT pizzas (a to-many link) in one
# transaction, then reads by primary key on one thread while another rewrites PER_COMMIT of
# them per transaction, five times. One JSON line per run, appended to OUT.
in_process_reader_probe() {
    local out="$1" count="$2" per_commit="$3" runs="$4"
    local probe="$here/.build/release/ObjectStoreBenchmarks"
    local dir
    dir="$(mktemp -d)"
    for _ in $(seq "$runs"); do
        for flavour in ours grdb; do
            STORE_READER_PROBE="in-process $flavour $dir/$flavour-pizzas.db $count $per_commit" "$probe" >> "$out"
            rm -f "$dir"/*
        done
    done
    rm -rf "$dir"
}

# The long-running writer (RewriteProbe.swift): ROUNDS times, the libraries taking turns, fill
# a file of COUNT pizzas with each library, then in a fresh process rewrite every pizza once in
# TRANSACTIONS transactions, appending one JSON line per run (time, worst commit, resident
# memory, the file's largest size).
rewrite_probe() {
    local out="$1" count="$2" transactions="$3" rounds="${4:-1}"
    local probe="$here/.build/release/ObjectStoreBenchmarks"
    local dir
    dir="$(mktemp -d)"
    for _ in $(seq "$rounds"); do
        for flavour in ours grdb; do
            local file="$dir/$flavour-rewrite.db"
            STORE_SCALE_PROBE="write $flavour $count $file" "$probe" >/dev/null
            sync
            STORE_SCALE_PROBE="rewrite $flavour $file $transactions" "$probe" >> "$out"
            rm -rf "$dir"/*
        done
    done
    rm -rf "$dir"
}

# The ObjectStore paired probe (Benchmarks/ObjectStoreBenchmarks/PairedProbe.swift): every
# scenario again, ROUNDS rounds in one process, its flavours taking turns, one JSON line each.
# With a fixed hash seed: Swift seeds hashing afresh in each process, which moves code that
# hashes a lot (both libraries' queries) by up to about 10% from one process to the next.
paired_probe() {
    local out="$1" rounds="$2"
    SWIFT_DETERMINISTIC_HASHING=1 STORE_PAIRED_PROBE="$rounds" "$here/.build/release/ObjectStoreBenchmarks" | grep '^{' > "$out"
}

if [[ "$mode" == smoke ]]; then
    # Build in release and run each suite's executable by itself: a benchmark executable run
    # without the plugin runs every benchmark once and prints its figures. (The plugin would
    # spend a minute building its own tools first.)
    export STREAMS_BENCHMARK_SMOKE=1
    mkdir -p "$here/.build"
    logs=()
    for suite in "${suites[@]}"; do
        log="$here/.build/smoke-${suite%Benchmarks}.log"
        : > "$log"
        swift build -c release --product "$suite" 2>&1 | grep -E "error|warning: .*Benchmarks/" || true
        "$here/.build/release/$suite" --quiet true "$@" >> "$log" 2>&1
        logs+=("$log")
    done
    scale="$here/.build/smoke-scale.jsonl"
    scale_probe "$scale" 2000
    reader_probe "$here/.build/smoke-readers.jsonl" 2000 1000 1 1
    in_process_reader_probe "$here/.build/smoke-readers.jsonl" 2000 1000 1
    rewrite_probe "$scale" 2000 20
    paired_probe "$here/.build/smoke-paired.jsonl" 1
    python3 "$here/report.py" --smoke "${logs[@]}" --scale "$scale" --readers "$here/.build/smoke-readers.jsonl" \
        --paired "$here/.build/smoke-paired.jsonl"
    exit 0
fi

# Every process of the full run hashes with a fixed seed, as the paired probe does: Swift seeds
# its hashing afresh in each process, and code that hashes a lot (both libraries' queries)
# moved by up to about 10% from one process to the next with the seed alone.
export SWIFT_DETERMINISTIC_HASHING=1

results="$here/.build/benchmark-results"
rm -rf "$results"
mkdir -p "$results"

# The plugin builds the benchmark targets in release configuration into Benchmarks/.build.
swift package --allow-writing-to-package-directory benchmark \
    --format jmh --path "$results" --no-progress "$@"

machine="$(uname -m), $(nproc) cores, $(swift --version 2>/dev/null | grep -m1 -o 'Swift version [^ ]*')"
date="$(date -u '+%Y-%m-%d %H:%M UTC')"
swift build -c release --product ObjectStoreBenchmarks 2>&1 | grep -E "error|warning: .*Benchmarks/" || true
scale_probe "$results/scale.jsonl" 100000 1000000
reader_probe "$results/readers.jsonl" 1000000 100000 3 9
in_process_reader_probe "$results/readers.jsonl" 1000000 100000 3
rewrite_probe "$results/scale.jsonl" 1000000 1000 3
paired_probe "$results/paired.jsonl" 15
python3 "$here/report.py" "$results" "$machine" "$date" --output "$root/Guides/Performance.md" --scale "$results/scale.jsonl" \
    --readers "$results/readers.jsonl" --paired "$results/paired.jsonl"
