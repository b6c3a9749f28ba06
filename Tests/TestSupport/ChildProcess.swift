// The one place where tests start another process. Foundation's `Process` exists on macOS,
// Linux and Windows; iOS, tvOS, watchOS and visionOS have none (an app may not start
// processes), so there these tests compile and are skipped (`.startsProcesses`).
import Foundation
import Testing

/// A program a test runs as a process of its own (the store's crash helper, a second process
/// holding a file's lock), with its standard output read through a pipe.
public final class ChildProcess {
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
    /// Whether this platform lets a test start a process: not this one.
    public static let isSupported = false

    /// Throws: there is no way to start a process here (tests carry `.startsProcesses`).
    public init(_ executable: URL, arguments: [String], output: Pipe, discardingStandardError: Bool = false) throws {
        throw TestError.code(Int(ENOTSUP))
    }

    /// Never reached: no instance exists.
    public var processIdentifier: Int32 { -1 }

    /// Never reached: no instance exists.
    public func waitUntilExit() {}
    #else
    /// Whether this platform lets a test start a process: this one does.
    public static let isSupported = true

    private let process = Process()

    /// Starts `executable` with `arguments`, its standard output going to `output` and its
    /// standard error to the test's own, or nowhere when `discardingStandardError`.
    public init(_ executable: URL, arguments: [String], output: Pipe, discardingStandardError: Bool = false) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = output
        if discardingStandardError { process.standardError = FileHandle.nullDevice }
        try process.run()
    }

    /// The running process's id (for `kill`).
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Returns once the process has ended.
    public func waitUntilExit() { process.waitUntilExit() }
    #endif
}

extension Trait where Self == ConditionTrait {
    /// For tests that start a process (``ChildProcess``): skipped, saying why, where none can
    /// be started.
    public static var startsProcesses: Self {
        .enabled(if: ChildProcess.isSupported, "iOS, tvOS, watchOS and visionOS cannot start a process")
    }
}
