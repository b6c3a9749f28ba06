/// An error for tests, comparable by value.
public enum TestError: Error, Equatable, Sendable {
    /// The usual test failure.
    case boom
    /// A failure carrying a code.
    case code(Int)
}

/// RxTest-style shorthand for a test error.
public let testError = TestError.boom
