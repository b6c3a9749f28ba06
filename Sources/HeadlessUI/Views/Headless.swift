import Streams

/// Runs code the way the UI does: on the main actor and the main scheduler, with everything it
/// queued there drained afterwards. Tests and headless apps use it instead of a run loop.
///
/// Its functions are isolated to the main actor, as the views are: call them from `@MainActor`
/// code (a `@MainActor` test, an app's main-actor code, a command line's top-level code).
///
///     Headless.run {
///         viewModel.name.value = "Marinara"      // a binding updates the label inline
///     }
///     #expect(label.text == "Marinara")
public enum Headless {
    /// Runs `body` on the main actor as an action of the main scheduler, then drains the main
    /// scheduler there.
    ///
    /// Inside `body`, `MainScheduler.instance` runs work inline, so bindings take effect at
    /// once; work queued from other threads runs in the drain.
    ///
    /// - Parameter body: The UI code.
    /// - Returns: What `body` returns.
    @MainActor @discardableResult
    public static func run<T>(_ body: () -> T) -> T {
        var result: T?
        withoutActuallyEscaping(body) { body in
            _ = MainScheduler.asyncInstance.schedule(()) { _ in
                result = body()
                return Disposables.create()
            }
            MainScheduler.drain()
        }
        guard let result else {
            preconditionFailure("Headless.run: the main scheduler did not run the action")
        }
        return result
    }

    /// Runs throwing UI code on the main scheduler, then drains it; see ``run(_:)``.
    ///
    /// - Parameter body: The UI code.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @MainActor @discardableResult
    public static func runThrowing<T>(_ body: () throws -> T) throws -> T {
        let outcome: Result<T, Error> = run { Result { try body() } }
        return try outcome.get()
    }

    /// Runs the work queued on the main scheduler (from other threads, or by
    /// `MainScheduler.asyncInstance`), on the main actor.
    ///
    /// - Returns: The number of actions run.
    @MainActor @discardableResult
    public static func drain() -> Int {
        MainScheduler.drain()
    }
}
