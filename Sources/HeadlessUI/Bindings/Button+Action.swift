import Streams

@MainActor
extension Reactive where Base: Button {
    /// Executes `action` with `input` on each tap and keeps the button enabled only while
    /// the action is.
    ///
    /// - Parameters:
    ///   - action: The command.
    ///   - input: The input for each execution.
    /// - Returns: The binding.
    public func bind<Input, Element>(to action: Action<Input, Element>, input: Input) -> Disposable {
        bind(to: action) { _ in input }
    }

    /// Executes `action` on each tap with an input made from the button, and keeps the button
    /// enabled only while the action is. The binding holds the action until it is disposed.
    ///
    /// - Parameters:
    ///   - action: The command.
    ///   - inputTransform: Makes the input.
    /// - Returns: The binding.
    public func bind<Input, Element>(to action: Action<Input, Element>, inputTransform: @escaping (Base) -> Input) -> Disposable {
        let button = base
        let taps = tap.subscribe(onNext: { [weak button] in
            guard let button else { return }
            action.execute(inputTransform(button))
        })
        let enabled = action.isEnabled.bind(to: isEnabled)
        return Disposables.create(taps, enabled)
    }
}
