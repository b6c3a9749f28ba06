import Foundation
import Streams

/// Where the data on screen came from.
public enum DataOrigin: Sendable, Equatable {
    /// The local store.
    case local
    /// The network (and was stored).
    case network
}

/// What a screen has of a list: nothing yet, a list (fresh, or kept after the network failed),
/// or nothing because loading failed. Errors are values here: a failure is a state a screen
/// shows, never an error that ends the stream.
///
///     loading ── loaded([a], local) ── loaded([a, b], network)       online
///     loading ── loaded([a], local) ── stale([a], offline)            offline, something stored
///     loading ── failed(offline) ──(reload)── loading ── loaded(…)     offline, nothing stored
public enum LoadState<Element: Hashable> {
    /// Nothing to show yet: a spinner or a skeleton.
    case loading
    /// A list, and which source gave it.
    case loaded([Element], origin: DataOrigin)
    /// A list kept on screen, and the error that kept it from being fresh: a banner.
    case stale([Element], error: Error)
    /// Nothing to show, and why: the error view with Retry.
    case failed(Error)

    /// The list to show, if the state has one.
    public var list: [Element]? {
        switch self {
        case .loaded(let list, _), .stale(let list, _): return list
        case .loading, .failed: return nil
        }
    }

    /// The error of a `stale` or `failed` state.
    public var error: Error? {
        switch self {
        case .stale(_, let error), .failed(let error): return error
        case .loading, .loaded: return nil
        }
    }

    /// `true` for a list with no element: there is nothing to show in it (the chain of
    /// ``LocalFirstList`` filters these out, as an empty store is not an answer).
    public var isEmpty: Bool { list?.isEmpty ?? false }

    /// `true` when both states are the same case with the same elements in any order (each as
    /// many times), the same origin and equal errors: the screen would not change.
    ///
    /// - Parameter other: Another state.
    /// - Returns: Whether `other` says nothing new.
    public func isSame(as other: LoadState) -> Bool {
        switch (self, other) {
        case (.loading, .loading): return true
        case (.loaded(let a, let x), .loaded(let b, let y)): return x == y && sameElements(a, b)
        case (.stale(let a, let x), .stale(let b, let y)): return errorsAreEqual(x, y) && sameElements(a, b)
        case (.failed(let x), .failed(let y)): return errorsAreEqual(x, y)
        default: return false
        }
    }
}

extension LoadState: Equatable {
    /// Equal cases with equal lists (in the same order) and equal errors (`errorsAreEqual`).
    public static func == (lhs: LoadState, rhs: LoadState) -> Bool {
        switch (lhs, rhs) {
        case (.loading, .loading): return true
        case (.loaded(let a, let x), .loaded(let b, let y)): return a == b && x == y
        case (.stale(let a, let x), .stale(let b, let y)): return a == b && errorsAreEqual(x, y)
        case (.failed(let x), .failed(let y)): return errorsAreEqual(x, y)
        default: return false
        }
    }
}

extension LoadState: CustomStringConvertible {
    /// `loading`, `loaded(2, local)`, `stale(2, offline)` or `failed(offline)`: the count of the
    /// list, not its elements.
    public var description: String {
        switch self {
        case .loading: return "loading"
        case .loaded(let list, let origin): return "loaded(\(list.count), \(origin))"
        case .stale(let list, let error): return "stale(\(list.count), \(error))"
        case .failed(let error): return "failed(\(error))"
        }
    }
}

/// `true` when both arrays hold the same elements, each as many times, in any order.
func sameElements<Element: Hashable>(_ lhs: [Element], _ rhs: [Element]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    var counts: [Element: Int] = [:]
    for element in lhs { counts[element, default: 0] += 1 }
    for element in rhs {
        guard let count = counts[element], count > 0 else { return false }
        counts[element] = count - 1
    }
    return true
}
