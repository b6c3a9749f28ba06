import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps the query parser and compiler, which recurse once per level of nesting, from running
/// out of the calling thread's stack: past the fixed nesting limits, a thread with a small stack
/// (a 512 KiB secondary thread, an unoptimised build's large frames) gets a `QueryError` when
/// less than ``margin`` of its stack is left, instead of a crash.
struct StackGuard {
    /// What must stay free below the deepest checked frame: room for the frames a parse or a
    /// compile adds between two checks, and for the caller after it returns.
    static let margin = 96 * 1024

    /// The calling thread's stack; `nil` when its bounds are unknown (then only the fixed
    /// limits apply).
    private let stack: Range<UInt>?

    init() {
        stack = StackGuard.currentStack()
    }

    /// Throws when the calling frame is within ``margin`` of the end of the stack.
    ///
    /// - Parameter column: Where in the query the nesting that got too deep is.
    func check(column: Int) throws {
        guard let stack else { return }
        var marker: UInt8 = 0
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        // A local that is not on the thread's stack (AddressSanitizer moves frames to a fake
        // stack on the heap) says nothing about the room left: only the fixed limits apply.
        guard stack.contains(here) else { return }
        if here < stack.lowerBound + UInt(StackGuard.margin) {
            throw QueryError(.unsupported, expected: "a query nested less deeply (this thread's stack is too small for it)",
                             found: "deeper nesting", column: column)
        }
    }

    /// The main thread's stack, found once (asking for it reads the process's maps on Linux).
    nonisolated(unsafe) private static var mainStack: Range<UInt>?
    private static let mainStackOnce: Void = { mainStack = threadStack() }()

    /// The calling thread's stack, lowest address first (stacks grow down on every platform
    /// this package supports).
    static func currentStack() -> Range<UInt>? {
        if Thread.isMainThread {
            _ = mainStackOnce
            return mainStack
        }
        return threadStack()
    }

    private static func threadStack() -> Range<UInt>? {
        #if canImport(Darwin)
        let top = UInt(bitPattern: pthread_get_stackaddr_np(pthread_self()))
        let size = UInt(pthread_get_stacksize_np(pthread_self()))
        return top > size ? (top - size)..<top : nil
        #elseif canImport(Glibc)
        var attributes = pthread_attr_t()
        guard gnuPthreadGetattr(pthread_self(), &attributes) == 0 else { return nil }
        defer { pthread_attr_destroy(&attributes) }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return nil }
        let bottom = UInt(bitPattern: address)
        return bottom..<(bottom + UInt(size))
        #else
        return nil
        #endif
    }
}

#if canImport(Glibc)
/// glibc's `pthread_getattr_np` (a GNU extension the Glibc module does not export): the calling
/// thread's attributes, including where its stack is.
@_silgen_name("pthread_getattr_np")
private func gnuPthreadGetattr(_ thread: pthread_t, _ attributes: UnsafeMutablePointer<pthread_attr_t>) -> Int32
#endif
