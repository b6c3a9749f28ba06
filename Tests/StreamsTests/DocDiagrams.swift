import Foundation
import Streams
import StreamsTesting

/// The marble diagrams drawn in the doc comments of `Sources/Streams`, read from the source
/// files so that ``OperatorDiagramTests`` can run each one against its operator.
///
/// A diagram is a code block of a doc comment (`///` and five spaces) made of marble lines and
/// one line naming the operator:
///
///     source: --a-----b-------|      inputs, one per line, optionally labelled
///     a:        1-2-3-4|             an inner sequence, drawn where it is subscribed
///     flatMapLatest { $0 }           the operator
///             --1-2-3-5---6---|      the result
///
/// Every character of a marble line is one frame of 10 ticks, and columns are time: frame 0 is
/// the leftmost column where marbles start, which the test subscribes at 200. An input
/// or inner line that starts further right starts that many frames later: a cold inner sequence
/// starts at the frame of its first character, and the test checks that the operator subscribes
/// it exactly then. Spaces inside a marble line would break the alignment, so there are none.
/// A one-line diagram, `--1--x   asDriver(onErrorJustReturn: 0)   --1--0|`, is input, operator
/// and result separated by three spaces or more.
///
/// Digits are the elements they name. In the input lines of a flattening operator, letters name
/// the inner lines. A result element that is not one character is drawn as a capital letter
/// explained by a last line, `where A = [1, 3], B = [2, 4]`. One frame is one second of the
/// test's virtual time, so `debounce(.seconds(2), scheduler: scheduler)` waits two frames.
struct DocDiagram: CustomStringConvertible {
    /// One marble line.
    struct Line {
        /// The label before the colon, if any.
        var label: String?
        /// Frames between the diagram's frame 0 and the line's first marble.
        var offset: Int
        /// The marbles, from the first one.
        var marbles: String
    }

    /// The file, relative to `Sources/Streams`.
    var file: String
    /// The 1-based line of the operator in the file.
    var line: Int
    /// The operator line, trimmed.
    var operatorText: String
    /// The lines above the operator.
    var inputs: [Line]
    /// The line below it.
    var result: Line
    /// What the capital letters of the result stand for.
    var legend: [Character: String] = [:]

    /// `File.swift: operator`, the key a test registers the diagram under.
    var key: String { "\((file as NSString).lastPathComponent): \(operatorText)" + (ordinal.map { " (\($0))" } ?? "") }
    /// 2 for the second diagram of the same operator in one file, and so on.
    var ordinal: Int?

    var description: String { "Sources/Streams/\(file):\(line) \(operatorText)" }

    /// The input or inner line labelled `label`.
    func line(_ label: String) -> Line? { inputs.first { $0.label == label } }
}

enum DocDiagrams {
    /// The `Sources/Streams` folder of this checkout.
    static let sourcesRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/Streams")

    /// Every diagram of every Swift file under `Sources/Streams`, or the reasons some could not be read.
    static func all() throws -> (diagrams: [DocDiagram], problems: [String]) {
        var diagrams: [DocDiagram] = []
        var problems: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: sourcesRoot.path)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".swift") { files.append(path) }
        }
        for file in files.sorted() {
            let text = try String(contentsOf: sourcesRoot.appendingPathComponent(file), encoding: .utf8)
            let found = Self.diagrams(in: text, file: file)
            diagrams += found.diagrams
            problems += found.problems
        }
        // A file that draws one operator twice (two cases of `first()`) numbers the second.
        var seen: [String: Int] = [:]
        for index in diagrams.indices {
            let count = seen[diagrams[index].key, default: 0] + 1
            seen[diagrams[index].key] = count
            if count > 1 { diagrams[index].ordinal = count }
        }
        return (diagrams, problems)
    }

    /// The diagrams in one file's text.
    static func diagrams(in text: String, file: String) -> (diagrams: [DocDiagram], problems: [String]) {
        var diagrams: [DocDiagram] = []
        var problems: [String] = []
        var block: [(number: Int, text: String)] = []
        func flush() {
            defer { block = [] }
            guard block.contains(where: { marbleLine(withoutCaption($0.text)) != nil }) else { return }
            do {
                diagrams += try Self.diagrams(from: block, file: file)
            } catch {
                problems.append("Sources/Streams/\(file):\(block[0].number): \(error)")
            }
        }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = raw.drop { $0 == " " }
            if trimmed.hasPrefix("///     ") {
                block.append((index + 1, String(trimmed.dropFirst(8))))
            } else {
                flush()
            }
        }
        flush()
        return (diagrams, problems)
    }

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// A diagram from a code block that has marble lines, or nil when the block is only a code
    /// example that happens to contain a dash.
    static func diagrams(from block: [(number: Int, text: String)], file: String) throws -> [DocDiagram] {
        let oneLiners = block.map { oneLineDiagram($0.text, number: $0.number, file: file) }
        if oneLiners.allSatisfy({ $0 != nil }) { return oneLiners.compactMap { $0 } }
        let operatorIndices = block.indices.filter { marbleLine(withoutCaption(block[$0].text)) == nil && !block[$0].text.hasPrefix("where ") }
        guard operatorIndices.count == 1, let operatorIndex = operatorIndices.first else {
            // Not an operator's diagram: a code example, or a picture of marble lines with
            // captions (`--1|    a success`, a subject's subscribers). Anything else that draws
            // with dashes is a diagram gone wrong.
            let captioned = block.allSatisfy { line in
                !line.text.contains("-") || marbleLine(withoutCaption(line.text)) != nil
            }
            if captioned { return [] }
            throw Malformed(description: "a drawing that is neither a diagram nor marbles with captions")
        }
        var block = block
        var legend: [Character: String] = [:]
        if let last = block.last, last.text.hasPrefix("where ") {
            legend = try Self.legend(String(last.text.dropFirst(6)))
            block.removeLast()
        }
        guard operatorIndex > 0, operatorIndex == block.count - 2 else {
            throw Malformed(description: "the operator line must have the inputs above it and exactly one result line below")
        }
        let parsed = block.map { marbleLine($0.text) }
        guard parsed[0] != nil, let origin = parsed.compactMap({ $0?.column }).min() else { throw Malformed(description: "no input line") }
        func line(_ index: Int) throws -> DocDiagram.Line {
            guard let marble = parsed[index] else { throw Malformed(description: "line \(block[index].number) is not a marble line") }
            guard marble.column >= origin else {
                throw Malformed(description: "line \(block[index].number) starts left of the first input's frame 0")
            }
            return DocDiagram.Line(label: marble.label, offset: marble.column - origin, marbles: marble.marbles)
        }
        return [DocDiagram(file: file, line: block[operatorIndex].number,
                           operatorText: block[operatorIndex].text.trimmingCharacters(in: .whitespaces),
                           inputs: try (0..<operatorIndex).map(line), result: try line(block.count - 1), legend: legend)]
    }

    /// `input   operator   result`, optionally followed by `   a caption`.
    static func oneLineDiagram(_ text: String, number: Int, file: String) -> DocDiagram? {
        let parts = text.components(separatedBy: "   ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard parts.count == 3 || parts.count == 4, let input = marbleLine(parts[0]), input.label == nil,
              marbleLine(parts[1]) == nil, let result = marbleLine(parts[2]), result.label == nil else { return nil }
        return DocDiagram(file: file, line: number, operatorText: parts[1],
                          inputs: [DocDiagram.Line(label: nil, offset: 0, marbles: input.marbles)],
                          result: DocDiagram.Line(label: nil, offset: 0, marbles: result.marbles))
    }

    /// `A = [1, 3], B = [2, 4]`: each capital letter and the text it stands for.
    static func legend(_ text: String) throws -> [Character: String] {
        var legend: [Character: String] = [:]
        var rest = Substring(text)
        while !rest.isEmpty {
            guard let letter = rest.first, letter.isUppercase, rest.dropFirst().hasPrefix(" = ") else {
                throw Malformed(description: "a legend is `where A = text, B = text`: \(text)")
            }
            rest = rest.dropFirst(4)
            var end = rest.endIndex
            var search = rest.startIndex
            while let comma = rest[search...].firstIndex(of: ",") {
                let after = rest[comma...].dropFirst()
                if after.count >= 5, after.hasPrefix(" "), after.dropFirst().first?.isUppercase == true, after.dropFirst(2).hasPrefix(" = ") {
                    end = comma
                    break
                }
                search = rest.index(after: comma)
            }
            legend[letter] = String(rest[..<end])
            rest = end == rest.endIndex ? "" : rest[end...].dropFirst(2)
        }
        return legend
    }

    /// The text before a caption: `--1|   a success` gives `--1|`, `B:    -3--|   joins late`
    /// gives `B:    -3--|`.
    static func withoutCaption(_ text: String) -> String {
        let characters = Array(text)
        var index = 0
        if let colon = characters.firstIndex(of: ":"), characters[..<colon].allSatisfy({ $0.isLetter || $0.isNumber }) {
            index = colon + 1
        }
        while index < characters.count, characters[index] == " " { index += 1 }
        while index < characters.count, characters[index] != " " { index += 1 }
        let rest = characters[index...]
        return rest.starts(with: "   ") ? String(characters[..<index]) : text
    }

    /// `label: marbles` or `marbles` (at least one `-`, `|` or `#`, no inner spaces), with the
    /// column of the first marble.
    static func marbleLine(_ text: String) -> (label: String?, column: Int, marbles: String)? {
        let characters = Array(text)
        var index = 0
        var label: String?
        if let colon = characters.firstIndex(of: ":") {
            let name = String(characters[..<colon])
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
            label = name
            index = colon + 1
        }
        while index < characters.count, characters[index] == " " { index += 1 }
        let column = index
        var end = characters.count
        while end > column, characters[end - 1] == " " { end -= 1 }
        let marbles = String(characters[column..<end])
        guard !marbles.isEmpty,
              marbles.allSatisfy({ $0.isLetter || $0.isNumber || "-|#^()".contains($0) }),
              marbles.contains(where: { "-|#".contains($0) }) else { return nil }
        return (label, column, marbles)
    }
}

/// One run of a diagram: its input lines as test observables on one ``TestScheduler``.
final class DiagramRun {
    let diagram: DocDiagram
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.1, simulateProcessingDelay: false)
    private(set) var drawnCold: [(line: DocDiagram.Line, subscriptions: () -> [Subscription])] = []
    private(set) var undrawn: [(name: String, subscriptions: () -> [Subscription])] = []
    private var inners: [Character: Observable<Int>] = [:]

    init(_ diagram: DocDiagram) { self.diagram = diagram }

    /// Digits stand for themselves.
    static let digits: [Character: Int] = Dictionary(uniqueKeysWithValues: (0...9).map { (Character(String($0)), $0) })

    /// The first input line as a sequence of digits, subscribed at 200.
    var source: Observable<Int> { get throws { try input(at: 0) } }

    /// The input or inner line labelled `label`, a cold sequence of digits that starts at the
    /// frame of its first character. Its subscription is checked against the drawing.
    func input(_ label: String) throws -> Observable<Int> {
        guard let index = diagram.inputs.firstIndex(where: { $0.label == label }) else {
            throw DocDiagrams.Malformed(description: "no line labelled \(label)")
        }
        return try input(at: index)
    }

    private func input(at index: Int) throws -> Observable<Int> {
        let line = diagram.inputs[index]
        let events = try Marbles.events(line.marbles, values: Self.digits)
        let observable = scheduler.createColdObservable(events)
        drawnCold.append((line, { observable.subscriptions }))
        return observable.asObservable()
    }

    /// The first input line with each character as a one-character string.
    var strings: Observable<String> {
        get throws {
            let line = diagram.inputs[0]
            let characters = Dictionary(line.marbles.filter { $0.isLetter || $0.isNumber }.map { ($0, String($0)) }) { first, _ in first }
            let observable = scheduler.createColdObservable(try Marbles.events(line.marbles, values: characters))
            drawnCold.append((line, { observable.subscriptions }))
            return observable.asObservable()
        }
    }

    /// The first input line as a sequence of letters, each naming an inner line.
    var outer: Observable<Character> {
        get throws {
            let line = diagram.inputs[0]
            let letters = Dictionary(line.marbles.filter(\.isLetter).map { ($0, $0) }) { first, _ in first }
            let observable = scheduler.createColdObservable(try Marbles.events(line.marbles, values: letters))
            drawnCold.append((line, { observable.subscriptions }))
            return observable.asObservable()
        }
    }

    /// The inner sequence named `name`: its line, or, when it has none, an empty sequence that
    /// the operator must never subscribe.
    func inner(_ name: Character) -> Observable<Int> {
        if let made = inners[name] { return made }
        let made: Observable<Int>
        if diagram.line(String(name)) != nil, let observable = try? input(String(name)) {
            made = observable
        } else {
            let never = scheduler.createColdObservable([Recorded<Event<Int>>]())
            undrawn.append((String(name), { never.subscriptions }))
            made = never.asObservable()
        }
        inners[name] = made
        return made
    }

    /// The `owner` of a `withUnretained` diagram: held by the run until `frame`, then released.
    func owner(freedAtFrame frame: Int) -> DiagramOwner {
        let owner = DiagramOwner()
        var holder: DiagramOwner? = owner
        scheduler.scheduleAt(TestScheduler.Defaults.subscribed + 10 * frame) { holder = nil }
        _ = holder
        return owner
    }

    /// The characters of a result line and what each stands for: digits and small letters
    /// themselves, capitals what the legend says.
    var resultValues: [Character: String] {
        var values: [Character: String] = [:]
        for character in "0123456789abcdefghijklmnopqrstuvwyz" { values[character] = String(character) }
        values.merge(diagram.legend) { $1 }
        return values
    }

    /// Runs `operation` and returns what differs from the drawing: the result's events (each
    /// element compared by its description) and every line's subscription time.
    ///
    /// - Parameters:
    ///   - error: The error a `#` of the result line stands for.
    ///   - subscribedAtResultLine: Subscribe the operator's result at the first frame of the
    ///     result line instead of at frame 0 (for a connectable whose connection the operation
    ///     schedules, and an observer that joins later).
    func check<Sequence: ObservableConvertibleType>(
        error: Swift.Error = Marbles.defaultError,
        subscribedAtResultLine: Bool = false,
        _ operation: (DiagramRun) throws -> Sequence
    ) throws -> [String] {
        // Drivers and signals made by `operation` (also those its closures make while it runs)
        // deliver on the run's scheduler.
        let result = diagram.result
        let subscribed = TestScheduler.Defaults.subscribed + (subscribedAtResultLine ? 10 * result.offset : 0)
        var res: TestableObserver<String>?
        try SharingScheduler.mock(scheduler: scheduler) {
            let built = try operation(self).asObservable().map { element in
                (element as? CustomStringConvertible)?.description ?? "\(element)"
            }
            res = scheduler.start(created: TestScheduler.Defaults.created, subscribed: subscribed, disposed: TestScheduler.Defaults.disposed) { built }
        }
        guard let res else { return ["not run"] }
        var differences: [String] = []
        let values = resultValues
        let expected = try Marbles.events(result.marbles, values: values, error: error, startTime: TestScheduler.Defaults.subscribed + 10 * result.offset)
        if res.events != expected {
            let drawn = Marbles.string(from: res.events, values: values, startTime: TestScheduler.Defaults.subscribed)
            differences.append("result: drawn \(String(repeating: " ", count: result.offset))\(result.marbles)\n        actual \(drawn)")
        }
        for (line, subscriptions) in drawnCold {
            let start = TestScheduler.Defaults.subscribed + 10 * line.offset
            if subscriptions().first?.subscribe != start {
                differences.append("\(line.label ?? "source") is drawn from \(start), subscribed \(subscriptions())")
            }
        }
        for (name, subscriptions) in undrawn where !subscriptions().isEmpty {
            differences.append("\(name) is not drawn but is subscribed \(subscriptions())")
        }
        return differences
    }
}

/// An object a diagram holds weakly, named as the diagram names it.
final class DiagramOwner {
    let name = "owner"
}
