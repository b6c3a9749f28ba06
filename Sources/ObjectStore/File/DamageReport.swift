import Foundation
import Locking

/// The first damage found in a store file after it was opened (a page whose checksum or rows
/// do not hold up when first read). Shared by the file's pages and the store, which stops
/// writing once it is set.
final class DamageReport: @unchecked Sendable {
    private let lock = Lock()
    private var first: StoreError?

    var error: StoreError? { lock.withLock { first } }

    func record(_ error: StoreError) { lock.withLock { if first == nil { first = error } } }
}
