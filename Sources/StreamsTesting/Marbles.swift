import Streams

/// Marble strings: a compact, readable way to write and print recorded events.
///
///     let xs = try scheduler.createHotObservable("-a-^-b--c-|", values: ["a": 1, "b": 2, "c": 3])
///     let res = scheduler.start { xs.map { $0 * 10 } }
///     #expect(res.marbles(values: ["B": 20, "C": 30]) == "-B--C-|")
///
/// ## Grammar
///
/// Each character except a space is one *frame* of `timePerFrame` ticks (10 by default).
///
/// | character | meaning |
/// | --- | --- |
/// | `-` | a frame where nothing happens |
/// | a value key (`a`, `1`, …) | `.next` with the value mapped to that character |
/// | `|` | `.completed` |
/// | `#`, `x` | `.error` with the given error (`x` only when it is not a value key) |
/// | `(ab)` | a group: every event inside happens at the frame of the `(`; the group still takes one frame per character, parentheses included, so strings stay aligned |
/// | `^` | the subscription point of a hot observable: the reference frame |
/// | space | ignored, for alignment |
///
/// Frame *0*, the reference frame, is the `^` when there is one, otherwise the first frame.
/// An event at frame `f` is recorded at `startTime + f × timePerFrame`; frames before a `^`
/// have negative `f`.
///
/// Mistakes throw a ``MarbleError`` that names the 1-based column (counting every character,
/// spaces included).
///
/// ## Printing
///
/// ``string(from:values:timePerFrame:startTime:)`` turns recorded events back into a
/// marble string, so an expectation about events can compare readable strings. Printing
/// then parsing with the same parameters gives the events back whenever each event falls on
/// a frame and maps to a value key; anything that cannot be drawn exactly is listed after the
/// diagram in brackets, for example `--a--b  [off grid: b@215]`.
public enum Marbles {
    /// The error that `#` stands for when none is given: ``MarbleEventError``.
    public static let defaultError: Swift.Error = MarbleEventError()

    /// Parses a marble string into recorded events.
    ///
    ///     try Marbles.events("--a-(bc)-|", values: ["a": 1, "b": 2, "c": 3])
    ///     // [.next(20, 1), .next(40, 2), .next(40, 3), .completed(90)]
    ///
    /// - Parameters:
    ///   - marbles: The diagram.
    ///   - values: The element for each value character.
    ///   - error: The error for `#` (and `x`).
    ///   - timePerFrame: Ticks per frame.
    ///   - startTime: The time of the reference frame (the `^`, or else the first frame).
    /// - Returns: The events, in diagram order.
    /// - Throws: ``MarbleError`` for a malformed diagram.
    public static func events<Element>(
        _ marbles: String,
        values: [Character: Element],
        error: Swift.Error = defaultError,
        timePerFrame: TestTime = 10,
        startTime: TestTime = 0
    ) throws(MarbleError) -> [Recorded<Event<Element>>] {
        try parse(marbles, values: values, error: error, timePerFrame: timePerFrame, startTime: startTime, allowsSubscriptionPoint: true)
    }

    /// Parses a marble string whose value characters stand for themselves, as one-character
    /// strings (`#` and `x` still mean an error).
    ///
    ///     try Marbles.events("-a-b-|")   // [.next(10, "a"), .next(30, "b"), .completed(50)]
    ///
    /// - Parameters:
    ///   - marbles: The diagram.
    ///   - error: The error for `#` and `x`.
    ///   - timePerFrame: Ticks per frame.
    ///   - startTime: The time of the reference frame (the `^`, or else the first frame).
    /// - Returns: The events, in diagram order.
    /// - Throws: ``MarbleError`` for a malformed diagram.
    public static func events(
        _ marbles: String,
        error: Swift.Error = defaultError,
        timePerFrame: TestTime = 10,
        startTime: TestTime = 0
    ) throws(MarbleError) -> [Recorded<Event<String>>] {
        var values: [Character: String] = [:]
        for character in marbles where !reserved.contains(character) && character != "x" && !character.isWhitespace {
            values[character] = String(character)
        }
        return try events(marbles, values: values, error: error, timePerFrame: timePerFrame, startTime: startTime)
    }

    /// Draws recorded events as a marble string.
    ///
    ///     Marbles.string(from: [.next(220, 2), .next(220, 3), .completed(260)],
    ///                    values: ["b": 2, "c": 3], startTime: 200)
    ///     // "--(bc)|"   (the group takes four frames, so `|` is at frame 6)
    ///
    /// Events at the same time form a group. Elements with no key in `values` print as `?`,
    /// and events that are off the frame grid (or pushed right by a wide group) are drawn at
    /// the next free frame; both are listed in brackets after the diagram. Nothing is drawn
    /// after the first terminal event.
    ///
    /// - Parameters:
    ///   - events: The events, in time order (as a ``TestableObserver`` records them).
    ///   - values: The character for each element.
    ///   - timePerFrame: Ticks per frame.
    ///   - startTime: The time of frame 0; earlier events are drawn before a `^`.
    /// - Returns: The diagram.
    public static func string<Element: Equatable>(
        from events: [Recorded<Event<Element>>],
        values: [Character: Element],
        timePerFrame: TestTime = 10,
        startTime: TestTime = 0
    ) -> String {
        precondition(timePerFrame > 0, "timePerFrame must be positive")
        let keys = values.keys.sorted()
        var notes: [String] = []
        var unknown: [String] = []

        func symbol(_ event: Event<Element>) -> Character {
            switch event {
            case .next(let element):
                if let key = keys.first(where: { values[$0] == element }) { return key }
                unknown.append("\(element)")
                return "?"
            case .error:
                return "#"
            case .completed:
                return "|"
            }
        }

        // Group by time, stopping after the first terminal event.
        var groups: [(time: TestTime, symbols: [Character])] = []
        for recorded in events {
            let character = symbol(recorded.value)
            if let last = groups.last, last.time == recorded.time {
                groups[groups.count - 1].symbols.append(character)
            } else {
                groups.append((recorded.time, [character]))
            }
            if recorded.value.isStopEvent { break }
        }

        let hasCaret = groups.contains { $0.time < startTime }
        var frames = ""
        var cursor = hasCaret ? floorDivide(groups[0].time - startTime, timePerFrame) : 0
        var caretWritten = !hasCaret

        func pad(to frame: Int) {
            while cursor < frame {
                if !caretWritten && cursor == 0 {
                    frames.append("^")
                    caretWritten = true
                } else {
                    frames.append("-")
                }
                cursor += 1
            }
        }

        for group in groups {
            let offset = group.time - startTime
            let exactFrame = floorDivide(offset, timePerFrame)
            var frame = max(exactFrame, cursor)
            let width = group.symbols.count == 1 ? 1 : group.symbols.count + 2
            if !caretWritten && frame <= 0 && frame + width > 0 {
                // The group would cover the subscription point: draw the `^` first.
                pad(to: 0)
                frames.append("^")
                caretWritten = true
                cursor = 1
                frame = 1
            }
            if frame != exactFrame || offset - exactFrame * timePerFrame != 0 {
                notes.append("\(String(group.symbols))@\(group.time)")
            }
            pad(to: frame)
            if group.symbols.count == 1 {
                frames.append(group.symbols[0])
            } else {
                frames.append("(" + String(group.symbols) + ")")
            }
            cursor += width
        }
        if !caretWritten {
            pad(to: 0)
            frames.append("^")
        }

        var remarks: [String] = []
        if !notes.isEmpty { remarks.append("off grid: " + notes.joined(separator: ", ")) }
        if !unknown.isEmpty { remarks.append("? = " + unknown.joined(separator: ", ")) }
        return remarks.isEmpty ? frames : frames + "  [" + remarks.joined(separator: "; ") + "]"
    }

    // MARK: - Machinery

    static let reserved: Set<Character> = ["-", "(", ")", "^", "|", "#"]

    static func parse<Element>(
        _ marbles: String,
        values: [Character: Element],
        error: Swift.Error,
        timePerFrame: TestTime,
        startTime: TestTime,
        allowsSubscriptionPoint: Bool
    ) throws(MarbleError) -> [Recorded<Event<Element>>] {
        precondition(timePerFrame > 0, "timePerFrame must be positive")
        var frame = 0
        var subscriptionFrame: Int?
        var group: (frame: Int, column: Int, count: Int)?
        var terminated = false
        var parsed: [(frame: Int, event: Event<Element>)] = []

        for (index, character) in marbles.enumerated() {
            let column = index + 1
            if character.isWhitespace { continue }
            defer { frame += 1 }
            switch character {
            case "(":
                if group != nil { throw .nestedGroup(column: column) }
                group = (frame, column, 0)
            case ")":
                guard let open = group else { throw .unopenedGroup(column: column) }
                if open.count == 0 { throw .emptyGroup(column: open.column) }
                group = nil
            case "-":
                if group != nil { throw .unexpectedInGroup(character, column: column) }
            case "^":
                if group != nil { throw .unexpectedInGroup(character, column: column) }
                if !allowsSubscriptionPoint { throw .subscriptionPointInColdObservable(column: column) }
                if subscriptionFrame != nil { throw .duplicateSubscriptionPoint(column: column) }
                subscriptionFrame = frame
            default:
                if terminated { throw .eventAfterTerminal(column: column) }
                let event: Event<Element>
                if character == "|" {
                    event = .completed
                } else if let value = values[character] {
                    event = .next(value)
                } else if character == "#" || character == "x" {
                    event = .error(error)
                } else {
                    throw .unknownValue(character, column: column)
                }
                if event.isStopEvent { terminated = true }
                parsed.append((group?.frame ?? frame, event))
                group?.count += 1
            }
        }
        if let open = group { throw .unclosedGroup(column: open.column) }

        let origin = subscriptionFrame ?? 0
        return parsed.map { Recorded(time: startTime + ($0.frame - origin) * timePerFrame, value: $0.event) }
    }

    private static func floorDivide(_ lhs: Int, _ rhs: Int) -> Int {
        let quotient = lhs / rhs
        return (lhs % rhs != 0 && (lhs < 0) != (rhs < 0)) ? quotient - 1 : quotient
    }
}

/// A mistake in a marble string, with the 1-based column where it was found.
public enum MarbleError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A `(` with no matching `)`; the column of the `(`.
    case unclosedGroup(column: Int)
    /// A `)` with no `(` before it.
    case unopenedGroup(column: Int)
    /// A `(` inside a group.
    case nestedGroup(column: Int)
    /// `()` with no event; the column of the `(`.
    case emptyGroup(column: Int)
    /// A `-` or `^` inside a group.
    case unexpectedInGroup(Character, column: Int)
    /// An event after `|` or `#`: a sequence ends at its first terminal event.
    case eventAfterTerminal(column: Int)
    /// A character that is neither a marble symbol nor a key of the value map.
    case unknownValue(Character, column: Int)
    /// A second `^`.
    case duplicateSubscriptionPoint(column: Int)
    /// A `^` in a cold observable, whose times are relative to each subscription.
    case subscriptionPointInColdObservable(column: Int)

    /// The 1-based column of the mistake.
    public var column: Int {
        switch self {
        case .unclosedGroup(let column), .unopenedGroup(let column), .nestedGroup(let column),
             .emptyGroup(let column), .unexpectedInGroup(_, let column), .eventAfterTerminal(let column),
             .unknownValue(_, let column), .duplicateSubscriptionPoint(let column),
             .subscriptionPointInColdObservable(let column):
            return column
        }
    }

    /// What is wrong, and where.
    public var description: String {
        switch self {
        case .unclosedGroup(let column): return "Unclosed group: the '(' at column \(column) has no ')'."
        case .unopenedGroup(let column): return "Unexpected ')' at column \(column): no group is open."
        case .nestedGroup(let column): return "Nested group at column \(column): groups cannot contain groups."
        case .emptyGroup(let column): return "Empty group at column \(column): a group needs at least one event."
        case .unexpectedInGroup(let character, let column): return "Unexpected '\(character)' at column \(column) inside a group."
        case .eventAfterTerminal(let column): return "Event at column \(column) after the sequence ended ('|' or '#')."
        case .unknownValue(let character, let column): return "Unknown value '\(character)' at column \(column): add it to the value map."
        case .duplicateSubscriptionPoint(let column): return "Second subscription point '^' at column \(column)."
        case .subscriptionPointInColdObservable(let column): return "Subscription point '^' at column \(column) in a cold observable."
        }
    }
}

/// The error that `#` stands for in a marble string when no error is given.
public struct MarbleEventError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Creates the error.
    public init() {}

    /// `"marble error"`.
    public var description: String { "marble error" }
}

extension Recorded {
    /// Parses a marble string into recorded events (see ``Marbles``).
    ///
    ///     let expected = try Recorded.events(fromMarbles: "--a--|", values: ["a": 1], startTime: 200)
    ///     // [.next(220, 1), .completed(250)]
    ///
    /// - Parameters:
    ///   - marbles: The diagram.
    ///   - values: The element for each value character.
    ///   - error: The error for `#` (and `x`).
    ///   - timePerFrame: Ticks per frame.
    ///   - startTime: The time of the reference frame (the `^`, or else the first frame).
    /// - Returns: The events.
    /// - Throws: ``MarbleError`` for a malformed diagram.
    public static func events<Element>(
        fromMarbles marbles: String,
        values: [Character: Element],
        error: Swift.Error = Marbles.defaultError,
        timePerFrame: TestTime = 10,
        startTime: TestTime = 0
    ) throws(MarbleError) -> [Recorded<Event<Element>>] where Value == Event<Element> {
        try Marbles.events(marbles, values: values, error: error, timePerFrame: timePerFrame, startTime: startTime)
    }
}

extension TestScheduler {
    /// A hot observable scripted by a marble string; the `^` (or else the first frame) is at
    /// `startTime`, the default subscription time of ``start(_:)``.
    ///
    ///     let xs = try scheduler.createHotObservable("-a-^-b-|", values: ["a": 1, "b": 2])
    ///     // next(1) at 180, next(2) at 220, completed at 240
    ///
    /// - Parameters:
    ///   - marbles: The diagram.
    ///   - values: The element for each value character.
    ///   - error: The error for `#` (and `x`).
    ///   - timePerFrame: Ticks per frame.
    ///   - startTime: The time of the reference frame.
    /// - Returns: The hot observable.
    /// - Throws: ``MarbleError`` for a malformed diagram.
    public func createHotObservable<Element>(
        _ marbles: String,
        values: [Character: Element],
        error: Swift.Error = Marbles.defaultError,
        timePerFrame: TestTime = 10,
        startTime: TestTime = Defaults.subscribed
    ) throws(MarbleError) -> TestableObservable<Element> {
        let events = try Marbles.parse(marbles, values: values, error: error, timePerFrame: timePerFrame, startTime: startTime, allowsSubscriptionPoint: true)
        return createHotObservable(events)
    }

    /// A cold observable scripted by a marble string, with times relative to each
    /// subscription (a `^` is an error).
    ///
    ///     let ys = try scheduler.createColdObservable("--a-(b|)", values: ["a": 1, "b": 2])
    ///     // on each subscription: next(1) after 20, next(2) and completed after 40
    ///
    /// - Parameters:
    ///   - marbles: The diagram.
    ///   - values: The element for each value character.
    ///   - error: The error for `#` (and `x`).
    ///   - timePerFrame: Ticks per frame.
    /// - Returns: The cold observable.
    /// - Throws: ``MarbleError`` for a malformed diagram.
    public func createColdObservable<Element>(
        _ marbles: String,
        values: [Character: Element],
        error: Swift.Error = Marbles.defaultError,
        timePerFrame: TestTime = 10
    ) throws(MarbleError) -> TestableObservable<Element> {
        let events = try Marbles.parse(marbles, values: values, error: error, timePerFrame: timePerFrame, startTime: 0, allowsSubscriptionPoint: false)
        return createColdObservable(events)
    }
}

extension TestableObserver where Element: Equatable {
    /// The recorded events as a marble string, frame 0 at `startTime` (by default the
    /// subscription time of ``TestScheduler/start(_:)``).
    ///
    ///     #expect(res.marbles(values: ["a": 10, "b": 20]) == "-a--b-|")
    ///
    /// - Parameters:
    ///   - values: The character for each element.
    ///   - timePerFrame: Ticks per frame.
    ///   - startTime: The time of frame 0.
    /// - Returns: The diagram (see ``Marbles/string(from:values:timePerFrame:startTime:)``).
    public func marbles(values: [Character: Element], timePerFrame: TestTime = 10, startTime: TestTime = TestScheduler.Defaults.subscribed) -> String {
        Marbles.string(from: events, values: values, timePerFrame: timePerFrame, startTime: startTime)
    }
}

extension TestableObservable where Element: Equatable {
    /// The scripted events as a marble string, frame 0 at `startTime`.
    ///
    /// - Parameters:
    ///   - values: The character for each element.
    ///   - timePerFrame: Ticks per frame.
    ///   - startTime: The time of frame 0.
    /// - Returns: The diagram.
    public func marbles(values: [Character: Element], timePerFrame: TestTime = 10, startTime: TestTime = 0) -> String {
        Marbles.string(from: recordedEvents, values: values, timePerFrame: timePerFrame, startTime: startTime)
    }
}
