import Streams
import Foundation
import Locking

/// Global hooks of HeadlessUI, the place to observe programming errors in tests.
public enum HeadlessUIHooks {
    /// Something that should never happen in a correct app: an invalid table update outside a
    /// batch, a view touched off the main scheduler, an error bound to a table's items. (An
    /// error bound to a `Binder`, a relay or a `Variable` goes to Streams' `Hooks.programmingErrorHandler`.)
    public struct ProgrammingError: Sendable, CustomStringConvertible {
        /// What went wrong, in words.
        public let message: String
        /// The source file that made the mistake, when known.
        public let file: String
        /// The line that made the mistake, when known.
        public let line: UInt

        /// The message with its location.
        public var description: String { "\(message) (\(file):\(line))" }
    }

    nonisolated(unsafe) private static var _programmingErrorHandler: @Sendable (ProgrammingError) -> Void = defaultHandler
    private static let lock = Lock()

    /// Called for every programming error.
    ///
    /// The default stops a debug build with `assertionFailure` (RxCocoa's `rxFatalErrorInDebug`)
    /// and prints the message in a release build. Tests replace it to assert that an error
    /// was reported, and restore it afterwards.
    public static var programmingErrorHandler: @Sendable (ProgrammingError) -> Void {
        get { lock.withLock { _programmingErrorHandler } }
        set { lock.withLock { _programmingErrorHandler = newValue } }
    }

    /// The default handler: `assertionFailure` in debug builds, a printed message otherwise.
    public static let defaultHandler: @Sendable (ProgrammingError) -> Void = { error in
        #if DEBUG
        assertionFailure(error.description)
        #else
        print("HeadlessUI programming error: \(error)")
        #endif
    }

    static func report(_ message: String, file: StaticString = #fileID, line: UInt = #line) {
        programmingErrorHandler(ProgrammingError(message: message, file: "\(file)", line: line))
    }
}
