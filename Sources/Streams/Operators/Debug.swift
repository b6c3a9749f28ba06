import Foundation

extension ObservableType {
    /// Prints every event, the subscription and its disposal to standard output, with a
    /// timestamp, and passes the events on unchanged.
    ///
    ///     Observable.of(1, 2).debug("numbers").subscribe()
    ///     // 2026-01-01 12:00:00.000: numbers -> subscribed
    ///     // 2026-01-01 12:00:00.000: numbers -> Event next(1)
    ///     // 2026-01-01 12:00:00.000: numbers -> Event next(2)
    ///     // 2026-01-01 12:00:00.000: numbers -> Event completed
    ///     // 2026-01-01 12:00:00.000: numbers -> isDisposed
    ///
    /// - Parameters:
    ///   - identifier: The label of each line; by default the file name, line and function of
    ///     the call.
    ///   - trimOutput: Shortens event descriptions longer than 40 characters to their first and
    ///     last 20, joined by `...`.
    ///   - file: The calling file (for the default identifier).
    ///   - line: The calling line (for the default identifier).
    ///   - function: The calling function (for the default identifier).
    /// - Returns: The source's events, unchanged.
    public func debug(
        _ identifier: String? = nil,
        trimOutput: Bool = false,
        file: String = #file,
        line: UInt = #line,
        function: String = #function
    ) -> Observable<Element> {
        let label = identifier ?? Self.defaultDebugIdentifier(file: file, line: line, function: function)
        return Debug(source: asObservable(), identifier: label, trimOutput: trimOutput) { print($0) }
    }

    /// `debug` writing its lines to `output` instead of standard output (for tests).
    func debug(_ identifier: String, trimOutput: Bool = false, output: @escaping (String) -> Void) -> Observable<Element> {
        Debug(source: asObservable(), identifier: identifier, trimOutput: trimOutput, output: output)
    }

    static func defaultDebugIdentifier(file: String, line: UInt, function: String) -> String {
        let fileName = file.split(separator: "/").last.map(String.init) ?? file
        return "\(fileName):\(line) (\(function))"
    }
}

final class Debug<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    let identifier: String
    let trimOutput: Bool
    let output: (String) -> Void

    init(source: Observable<Element>, identifier: String, trimOutput: Bool, output: @escaping (String) -> Void) {
        self.source = source
        self.identifier = identifier
        self.trimOutput = trimOutput
        self.output = output
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = DebugSink(parent: self, observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

private final class DebugSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private static var maxEventTextLength: Int { 40 }

    private let parent: Debug<Element>
    private let formatter: DateFormatter
    private let loggedDisposal = AtomicFlag()

    init(parent: Debug<Element>, observer: Observer, handle: SinkDisposer?) {
        self.parent = parent
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        formatter.locale = Locale(identifier: "en_US_POSIX")
        self.formatter = formatter
        super.init(observer: observer, handle: handle)
        log("subscribed")
    }

    func on(_ event: Event<Element>) {
        let text = "\(event)"
        let shown: String
        if parent.trimOutput, text.count > Self.maxEventTextLength {
            let half = Self.maxEventTextLength / 2
            shown = String(text.prefix(half)) + "..." + String(text.suffix(half))
        } else {
            shown = text
        }
        log("Event \(shown)")
        forwardOn(event)
        if event.isStopEvent { dispose() }
    }

    override func dispose() {
        if !isDisposed, loggedDisposal.setOnce() { log("isDisposed") }
        super.dispose()
    }

    private func log(_ content: String) {
        parent.output("\(formatter.string(from: Date())): \(parent.identifier) -> \(content)")
    }
}
