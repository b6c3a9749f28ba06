/// A single notification in the life of a sequence.
///
/// Every sequence follows the grammar `next* (error | completed)?`: any number of
/// elements, then at most one terminal event, and nothing after it.
///
///     --1--2--3--|     three elements, then completed
///     --1--2--x        two elements, then an error
@frozen
public enum Event<Element> {
    /// The next element of the sequence.
    case next(Element)
    /// The sequence terminated with an error.
    case error(Swift.Error)
    /// The sequence completed successfully.
    case completed
}

extension Event {
    /// `true` for `.error` and `.completed`, the events that end a sequence.
    @inlinable
    public var isStopEvent: Bool {
        switch self {
        case .next: return false
        case .error, .completed: return true
        }
    }

    /// The element of a `.next` event, `nil` otherwise.
    @inlinable
    public var element: Element? {
        if case .next(let value) = self { return value }
        return nil
    }

    /// The error of an `.error` event, `nil` otherwise.
    @inlinable
    public var error: Swift.Error? {
        if case .error(let error) = self { return error }
        return nil
    }

    /// `true` for `.completed`.
    @inlinable
    public var isCompleted: Bool {
        if case .completed = self { return true }
        return false
    }

    /// Transforms the element of a `.next` event; a throwing transform turns into `.error`.
    ///
    /// - Parameter transform: The function applied to the element.
    /// - Returns: The transformed event.
    public func map<Result>(_ transform: (Element) throws -> Result) -> Event<Result> {
        do {
            switch self {
            case .next(let element): return .next(try transform(element))
            case .error(let error): return .error(error)
            case .completed: return .completed
            }
        } catch {
            return .error(error)
        }
    }
}

extension Event: CustomDebugStringConvertible {
    /// A description such as `next(1)`, `error(…)` or `completed`.
    public var debugDescription: String {
        switch self {
        case .next(let value): return "next(\(value))"
        case .error(let error): return "error(\(error))"
        case .completed: return "completed"
        }
    }
}

extension Event: @unchecked Sendable where Element: Sendable {}

/// Something that can be turned into an ``Event``; used by `dematerialize`.
public protocol EventConvertible {
    /// The element type of the event.
    associatedtype Element
    /// The event this value stands for.
    var event: Event<Element> { get }
}

extension Event: EventConvertible {
    /// The event itself.
    public var event: Event<Element> { self }
}

extension Event: Equatable where Element: Equatable {
    /// Events are equal when they are the same case with equal elements; errors are equal when
    /// they have the same type and the same description (errors are rarely `Equatable`).
    public static func == (lhs: Event<Element>, rhs: Event<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.next(let a), .next(let b)): return a == b
        case (.completed, .completed): return true
        case (.error(let a), .error(let b)): return errorsAreEqual(a, b)
        default: return false
        }
    }
}

/// Compares two errors: by `==` when the type is `Equatable`, by type and description otherwise.
public func errorsAreEqual(_ lhs: Swift.Error, _ rhs: Swift.Error) -> Bool {
    func open<Value: Equatable>(_ lhs: Value, _ rhs: Any) -> Bool {
        (rhs as? Value).map { $0 == lhs } ?? false
    }
    if let equatable = lhs as Any as? any Equatable {
        return open(equatable, rhs)
    }
    return type(of: lhs) == type(of: rhs) && String(reflecting: lhs) == String(reflecting: rhs)
}
