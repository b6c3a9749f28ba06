#!/usr/bin/env bash
# Checks on Linux what can be checked of the Apple platforms without their SDKs.
#
#   Scripts/check-apple.sh            # both settings: iOS-like and macOS-like
#   Scripts/check-apple.sh ios        # one of them
#
# For each setting it compiles the stand-ins of Scripts/AppleStubs/ into modules named after
# Apple's frameworks (UIKit or AppKit, with SwiftUI, SwiftData, Combine, StoreKit, Network),
# builds every library and executable target with them on the import path (so each
# `canImport(UIKit)`, `canImport(AppKit)`, `canImport(SwiftUI)` … takes its Apple value), and
# type-checks the files of Scripts/AppleStubs/Samples/ that the setting has: code a user writes
# beside those frameworks, which must name our types and theirs without an ambiguity.
#
# What it cannot check: branches on `canImport(Darwin)` or `os(…)` (Glibc is still what is
# imported here), the real frameworks' full surface, and anything at run time. The macOS
# workflow (.github/workflows/apple.yml) builds and tests on Apple's SDKs where it runs.
set -euo pipefail
cd "$(dirname "$0")/.."

settings=("$@")
[[ ${#settings[@]} -gt 0 ]] || settings=(ios macos)
stubs=Scripts/AppleStubs
status=0

for setting in "${settings[@]}"; do
    case "$setting" in
        ios)   frameworks=(UIKit SwiftUI SwiftData Combine StoreKit Network); samples=(SwiftUIViewModel SwiftUIObservation UIKitScreen) ;;
        macos) frameworks=(AppKit SwiftUI SwiftData Combine StoreKit Network); samples=(SwiftUIViewModel SwiftUIObservation AppKitScreen) ;;
        *) echo "check-apple: unknown setting $setting (ios or macos)" >&2; exit 2 ;;
    esac
    scratch=".build-apple-$setting"
    modules="$scratch/stubs"
    mkdir -p "$modules"
    echo "== $setting: stand-ins for ${frameworks[*]}"
    for framework in "${frameworks[@]}"; do
        swiftc -emit-module -parse-as-library -swift-version 6 -module-name "$framework" \
            -I "$modules" "$stubs/$framework.swift" -o "$modules/$framework.swiftmodule"
    done

    echo "== $setting: swift build with the stand-ins on the import path"
    if ! swift build --scratch-path "$scratch" -Xswiftc -I -Xswiftc "$PWD/$modules" 2>&1 \
            | tee "$scratch/build.log" | grep -E "error|warning:"; then
        :
    fi
    if grep -qE "error:" "$scratch/build.log"; then
        echo "check-apple: the library does not build in the $setting setting" >&2
        status=1
        continue
    fi
    if grep -E "/Sources/.*warning:" "$scratch/build.log"; then
        echo "check-apple: warnings in library sources in the $setting setting" >&2
        status=1
    fi

    # Each sample twice: as a plain Swift 6 target, and as Xcode's app template sets one up
    # (default isolation MainActor, with the "approachable concurrency" features).
    app_target=(-default-isolation MainActor -enable-upcoming-feature NonisolatedNonsendingByDefault
                -enable-upcoming-feature InferIsolatedConformances)
    for sample in "${samples[@]}"; do
        for target in plain app; do
            echo "== $setting: $sample.swift type-checks ($target target)"
            flags=()
            [[ "$target" == app ]] && flags=("${app_target[@]}")
            if ! swiftc -typecheck -swift-version 6 "${flags[@]}" -I "$modules" -I "$scratch/debug/Modules" \
                    -Xcc -fmodule-map-file="$PWD/Sources/CRC32CHardware/include/module.modulemap" \
                    "$stubs/Samples/$sample.swift"; then
                echo "check-apple: $sample.swift does not compile in the $setting setting ($target target)" >&2
                status=1
            fi
        done
    done
done

# The Darwin branches that can be checked without an SDK: the CRC-32C detection compiled for
# each Apple target against stand-in headers, and FullSync.swift's branch type-checked against
# a stand-in Darwin module.
echo "== Darwin: CRC32CHardware.c compiles for each Apple target"
for target in arm64-apple-macos15 x86_64-apple-macos15 arm64-apple-ios18 arm64-apple-ios18-simulator \
              arm64-apple-tvos18 arm64-apple-xros2 arm64_32-apple-watchos11; do
    if ! clang -target "$target" -nostdlibinc -isystem "$stubs/include" -I Sources/CRC32CHardware/include \
            -Wall -Wextra -Werror -c Sources/CRC32CHardware/CRC32CHardware.c -o /dev/null; then
        echo "check-apple: CRC32CHardware.c does not compile for $target" >&2
        status=1
    fi
done
echo "== Darwin: FullSync.swift type-checks with canImport(Darwin)"
darwin=".build-apple-darwin"
mkdir -p "$darwin"
swiftc -emit-module -parse-as-library -swift-version 6 -module-name Darwin "$stubs/Darwin.swift" -o "$darwin/Darwin.swiftmodule"
if ! swiftc -typecheck -parse-as-library -swift-version 6 -warnings-as-errors -I "$darwin" Sources/ObjectStore/File/FullSync.swift; then
    echo "check-apple: FullSync.swift's Darwin branch does not type-check" >&2
    status=1
fi
exit $status
