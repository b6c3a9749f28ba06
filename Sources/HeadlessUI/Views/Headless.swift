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
    /// Runs `body` on the main actor as the main thread runs an event handler, with the main
    /// scheduler drained before and after.
    ///
    /// First the work already queued on the main scheduler runs, so `body` sees the screen as it
    /// is. Then `body` runs outside any scheduled action: `MainScheduler.instance` runs what it
    /// schedules inline (while nothing is queued before it), so bindings take effect at once —
    /// typing into a field that enables an `Action` enables its button before the next line
    /// taps it. Finally the work `body` queued (`MainScheduler.asyncInstance`, other threads,
    /// what had to wait behind them) is drained.
    ///
    /// - Parameter body: The UI code.
    /// - Returns: What `body` returns.
    @MainActor @discardableResult
    public static func run<T>(_ body: () -> T) -> T {
        MainScheduler.drain()
        let result = MainScheduler.runAsEventHandler(body)
        MainScheduler.drain()
        return result
    }

    /// Puts `screen` on screen as a window's root view controller: it, the top of its stack and
    /// what it presents get `viewWillAppear` and `viewDidAppear` (see ``ViewController``).
    ///
    /// - Parameter screen: The root screen.
    @MainActor
    public static func show(_ screen: ViewController) {
        screen.appear()
    }

    /// Takes `screen` off screen (the app going to the background, or the window closing): what
    /// appeared with ``show(_:)`` gets `viewWillDisappear` and `viewDidDisappear`.
    ///
    /// - Parameter screen: The root screen.
    @MainActor
    public static func hide(_ screen: ViewController) {
        screen.disappear()
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
