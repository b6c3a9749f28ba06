import Foundation
import HeadlessUI
import Streams

// Taps that write to the store, and the error line that says when the store refused.

/// Runs a store write and says how it went, for a screen's error line: `nil` when it worked,
/// `what` and the error when it threw.
///
///     storeWrite("Could not add the pizza") { try cart.add(page) }   // nil, or "Could not add the pizza: …"
///
/// - Parameters:
///   - what: What failed, e.g. `"Could not add the pizza"`.
///   - body: The write.
/// - Returns: The message, or `nil`.
func storeWrite(_ what: String, _ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch {
        return "\(what): \(error)"
    }
}

/// The error line of a screen whose taps run `actions`: a message after a failure (`what`,
/// then the error), `nil` after the next success.
///
/// - Parameter actions: Each action with what it does, e.g. `"Could not add the pizza"`.
/// - Returns: The messages, on the main scheduler.
func errorMessages(_ actions: [(what: String, failures: Observable<Error>, successes: Observable<Void>)]) -> Driver<String?> {
    Observable.merge(actions.flatMap { action in
        [action.failures.map { Optional("\(action.what): \($0)") }, action.successes.map { nil }]
    })
    .startWith(nil)
    .asDriver(onErrorJustReturn: nil)
}

extension Action {
    /// This action's failures and successes, as ``errorMessages(_:)`` takes them.
    ///
    /// - Parameter what: What the action does when it fails, e.g. `"Could not add the pizza"`.
    func reporting(_ what: String) -> (what: String, failures: Observable<Error>, successes: Observable<Void>) {
        (what, underlyingError, elements.map { _ in })
    }
}
