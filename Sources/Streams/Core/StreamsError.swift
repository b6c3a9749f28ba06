/// Errors raised by the library itself.
public enum StreamsError: Swift.Error, @unchecked Sendable, CustomDebugStringConvertible {
    /// An unknown error.
    case unknown
    /// A subject or other object was used after it was disposed.
    case disposed(object: AnyObject)
    /// An arithmetic overflow.
    case overflow
    /// An argument was out of range.
    case argumentOutOfRange
    /// A sequence had no elements where one was required.
    case noElements
    /// A sequence had more than one element where exactly one was required.
    case moreThanOneElement
    /// An operation did not finish in time.
    case timeout

    /// A readable description.
    public var debugDescription: String {
        switch self {
        case .unknown: return "Unknown error occurred."
        case .disposed(let object): return "Object `\(object)` was already disposed."
        case .overflow: return "Arithmetic overflow occurred."
        case .argumentOutOfRange: return "Argument out of range."
        case .noElements: return "Sequence doesn't contain any elements."
        case .moreThanOneElement: return "Sequence contains more than one element."
        case .timeout: return "Sequence timeout."
        }
    }
}

extension StreamsError: Equatable {
    /// Errors are equal when they are the same case (`disposed` ones: for the same object), so
    /// tests can write `#expect(throws: RxError.timeout) { … }`.
    public static func == (lhs: StreamsError, rhs: StreamsError) -> Bool {
        switch (lhs, rhs) {
        case (.unknown, .unknown), (.overflow, .overflow), (.argumentOutOfRange, .argumentOutOfRange),
             (.noElements, .noElements), (.moreThanOneElement, .moreThanOneElement), (.timeout, .timeout):
            return true
        case (.disposed(let a), .disposed(let b)):
            return a === b
        default:
            return false
        }
    }
}

/// RxSwift's name for ``StreamsError``.
public typealias RxError = StreamsError
