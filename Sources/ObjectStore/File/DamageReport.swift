import Foundation
import Locking

/// The first damage found in a store file after it was opened (a page whose checksum or rows
/// do not hold up when first read). Shared by the file's pages and the store, which stops
/// writing once it is set; the stores opened on the file are told through their
/// `Configuration.onDamage`.
final class DamageReport: @unchecked Sendable {
    typealias Listener = @Sendable (StoreError) -> Void

    private let lock = Lock()
    private var first: StoreError?
    private var listeners: [ObjectIdentifier: Listener] = [:]

    var error: StoreError? { lock.withLock { first } }

    /// Records `error` unless damage was found before. The first one is passed to the listeners
    /// on a global queue: this runs with the file's lock held, and a listener is the app's code.
    func record(_ error: StoreError) {
        let told: [Listener] = lock.withLock {
            guard first == nil else { return [] }
            first = error
            return Array(listeners.values)
        }
        if !told.isEmpty { DispatchQueue.global().async { for listener in told { listener(error) } } }
    }

    /// Tells `listener` of the first damage (now, on a global queue, if it was already found),
    /// until `removeListener(owner)`.
    func addListener(_ owner: ObjectIdentifier, _ listener: @escaping Listener) {
        let found: StoreError? = lock.withLock {
            if first == nil { listeners[owner] = listener }
            return first
        }
        if let found { DispatchQueue.global().async { listener(found) } }
    }

    func removeListener(_ owner: ObjectIdentifier) { lock.withLock { _ = listeners.removeValue(forKey: owner) } }
}

extension FileFormat {
    /// The error for bytes whose checksum does not match. A CRC-32C tells that some byte it
    /// covers (or the stored checksum itself) changed, not which one, so the error names the
    /// record (its offset) and those bytes: `a page's checksum does not match: a byte in
    /// 28–4111 or in its checksum at 20–23 is not as written`.
    ///
    /// - Parameters:
    ///   - what: Whose checksum, with its possessive (`a page's`).
    ///   - offset: Where the record (or the file header) starts.
    ///   - range: The file bytes the checksum covers (with the checksum, when it follows them).
    ///   - checksum: Where the stored checksum lies, when it is apart from `range`.
    static func checksumMismatch(_ what: String, record offset: Int, covering range: Range<Int>, checksum: Range<Int>? = nil) -> StoreError {
        let apart = checksum.map { " or in its checksum at \($0.lowerBound)–\($0.upperBound - 1)" } ?? ""
        return .corrupted(offset: offset, reason: "\(what) checksum does not match: a byte in \(range.lowerBound)–\(range.upperBound - 1)\(apart) is not as written")
    }
}
