#!/usr/bin/env python3
"""Writes the per-arity `combineLatest` and `zip` of `SharedSequence` (2 to 8 sources).

    Scripts/generate-arities.py           rewrite both files
    Scripts/generate-arities.py --check   exit 1, naming the file, if either is not what this writes

Why generated: RxCocoa's shape takes each source as any `SharedSequenceConvertibleType` of the
same sharing strategy. A parameter pack cannot say that (Swift 6.3 rejects a same-type
requirement on a pack's associated type: "not yet supported"), so each arity is written out.
This script is the one place those signatures, bodies and doc comments come from; the two
Swift files are its output and are committed, so the package builds without it. `.ci/run`
checks that they are current. Edit this script, not the files.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]
LETTERS = "abcdefgh"

# What differs between the two operators: their prose and their marble lines. Arity 2 gets the
# full diagram; the others a one-line summary of the same behaviour.
OPERATORS = {
    "combineLatest": {
        "file": "Sources/Streams/Traits/SharedSequence+CombineLatestArity.swift",
        "selector_summary": [
            "Combines the latest element of each source with `resultSelector`, each time one of them",
            "sends, once every one has sent. The sources are any shared sequences (or types of yours",
            "convertible to one) of this sharing strategy.",
        ],
        "selector_parameter": "Makes an element from the latest element of each source; a thrown error ends the sequence with that error, as in RxCocoa (a shared sequence must not fail: throw only for a programming error).",
        "selector_marbles": [
            "a: --1-----2-----|",
            "b: -----3-----4------|",
            "combineLatest(a, b) { $0 + $1 }",
            "   -----4--5--6------|",
        ],
        "tuple_summary": [
            "Combines the latest element of each source into a tuple, each time one of them sends, once",
            "every one has sent. The sources are any shared sequences (or types of yours convertible to",
            "one) of this sharing strategy.",
        ],
        "tuple_marbles": [
            "a: --1-----2-----|",
            "b: -----3-----4------|",
            "combineLatest(a, b)",
            "   -----A--B--C------|",
            "where A = (1, 3), B = (2, 3), C = (2, 4)",
        ],
        "summary_marble": "--(latest of each)--(latest of each)--   after each source has sent",
    },
    "zip": {
        "file": "Sources/Streams/Traits/SharedSequence+ZipArity.swift",
        "selector_summary": [
            "Combines the elements of the sources pairwise, in order, with `resultSelector`: the n-th",
            "result uses the n-th element of each source. The sources are any shared sequences (or types",
            "of yours convertible to one) of this sharing strategy.",
        ],
        "selector_parameter": "Makes an element from one element of each source; a thrown error ends the sequence with that error, as in RxCocoa (a shared sequence must not fail: throw only for a programming error).",
        "selector_marbles": [
            "a: --1-----2-----3--|",
            "b: ----3-4-----------5--|",
            "zip(a, b) { $0 + $1 }",
            "   ----4---6---------8--|",
        ],
        "tuple_summary": [
            "Combines the elements of the sources pairwise, in order, into tuples: the n-th tuple holds",
            "the n-th element of each source. The sources are any shared sequences (or types of yours",
            "convertible to one) of this sharing strategy.",
        ],
        "tuple_marbles": [
            "a: --1-----2-----3--|",
            "b: ----3-4-----------5--|",
            "zip(a, b)",
            "   ----A---B---------C--|",
            "where A = (1, 3), B = (2, 4), C = (3, 5)",
        ],
        "summary_marble": "--(first of each)--(second of each)--|   completes when one source is out",
    },
}


def wrap(text, continuation, width=96):
    """`text` broken into doc-comment lines of at most `width` characters after `    /// `."""
    indent = text[:len(text) - len(text.lstrip())]
    lines, line = [], indent
    for word in text.split():
        if line.strip() and len(line) + 1 + len(word) > width - 8:
            lines.append(line)
            line = continuation + word
        else:
            line = f"{line} {word}" if line.strip() else line + word
    return lines + [line]


def doc(lines, indent="    "):
    return [f"{indent}///" + (f" {line}" if line else "") for line in lines]


def method(name, spec, arity, tuple_form):
    numbers = range(1, arity + 1)
    marbles = spec["tuple_marbles" if tuple_form else "selector_marbles"] if arity == 2 else [
        f"{name}({', '.join(LETTERS[:arity])}):  {spec['summary_marble']}"
    ]
    comment = spec["tuple_summary" if tuple_form else "selector_summary"] + [""]
    comment += ["    " + line for line in marbles] + ["", "- Parameters:"]
    comment += [f"  - source{n}: The {ORDINALS[n - 1]} source." for n in numbers]
    if not tuple_form:
        comment += wrap(f"  - resultSelector: {spec['selector_parameter']}", "    ")
    comment.append("- Returns: The shared sequence of " + ("tuples." if tuple_form else "results."))

    generics = ", ".join(f"O{n}: SharedSequenceConvertibleType" for n in numbers)
    elements = ", ".join(f"O{n}.Element" for n in numbers)
    constraints = ", ".join(f"O{n}.SharingStrategy == SharingStrategy" for n in numbers)
    converted = ", ".join(f"source{n}.asObservable()" for n in numbers)
    parameters = [f"        _ source{n}: O{n}" for n in numbers]
    if tuple_form:
        result = f"SharedSequence<SharingStrategy, ({elements})>"
        body = [f"        {result}(Observable.{name}(", f"            {converted}", "        ))"]
    else:
        parameters.append(f"        resultSelector: @escaping ({elements}) throws -> Element")
        result = "SharedSequence<SharingStrategy, Element>"
        body = [f"        SharedSequence(Observable.{name}(", f"            {converted},",
                "            resultSelector: resultSelector", "        ))"]
    return doc(comment) + [
        f"    public static func {name}<{generics}>(",
        ",\n".join(parameters),
        f"    ) -> {result}",
        f"    where {constraints} {{",
        *body,
        "    }",
    ]


def render(name, spec):
    lines = [
        f"// `{name}` of two to eight shared sequences, in RxCocoa's shape: each argument is any",
        "// `SharedSequenceConvertibleType` of the same sharing strategy, not only a `SharedSequence`",
        "// (a parameter pack cannot state that every source has the same strategy, so each arity is",
        "// written out, as RxCocoa does). Written by Scripts/generate-arities.py: edit that, not this.",
    ]
    for header, tuple_form in (("extension SharedSequence {", False),
                               ("extension SharedSequence where Element == Any {", True)):
        lines += ["", header]
        for arity in range(2, 9):
            if arity > 2:
                lines.append("")
            lines += method(name, spec, arity, tuple_form)
        lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    check = sys.argv[1:] == ["--check"]
    if sys.argv[1:] not in ([], ["--check"]):
        sys.exit(__doc__)
    stale = []
    for name, spec in OPERATORS.items():
        path = os.path.join(ROOT, spec["file"])
        text = render(name, spec)
        with open(path, encoding="utf-8") as file:
            current = file.read()
        if current == text:
            continue
        if check:
            stale.append(spec["file"])
        else:
            with open(path, "w", encoding="utf-8") as file:
                file.write(text)
            print(f"wrote {spec['file']}")
    if stale:
        sys.exit("not what Scripts/generate-arities.py writes (run it): " + ", ".join(stale))


if __name__ == "__main__":
    main()
