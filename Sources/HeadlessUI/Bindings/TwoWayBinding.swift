import Foundation
import Streams
import Locking

extension Variable where Element: Equatable {
    /// Binds this view-model variable both ways to a source of truth (a stored model field):
    /// values from `source` update the variable; changes to the variable are written with
    /// `write`.
    ///
    /// - There are no echo loops: a value that came from the source is not written back, and
    ///   a written value coming back from the source does not set the variable again.
    /// - Nothing is written at construction: the variable's current value is not written;
    ///   the source's first value replaces it.
    ///
    ///     let name = Variable("")
    ///     name.bindTwoWay(to: store.observe(pizza, \.name)) { try store.write { pizza.name = $0 } }
    ///         .disposed(by: bag)
    ///
    /// - Parameters:
    ///   - source: The values of the source of truth, current value first.
    ///   - write: Writes a value changed by the view model; an error is handed to `onError`.
    ///   - onError: Called with a failed write; the variable then goes back to the source's
    ///     value. The default reports a programming error.
    /// - Returns: The binding; dispose it to stop both directions.
    public func bindTwoWay<Source: ObservableType>(
        to source: Source,
        write: @escaping (Element) throws -> Void,
        onError: ((Error) -> Void)? = nil
    ) -> Disposable where Source.Element == Element {
        let coordinator = TwoWayCoordinator<Element>()
        let variable = self
        let fromSource = source.subscribe(onNext: { [weak variable] value in
            guard let variable else { return }
            let shouldSet = coordinator.state.withLock { state -> Bool in
                state.lastSourceValue = value
                guard variable.value != value else { return false }
                state.applyingSource += 1
                return true
            }
            guard shouldSet else { return }
            variable.value = value
            coordinator.state.withLock { $0.applyingSource -= 1 }
        }, onError: { error in
            HeadlessUIHooks.report("the source of a two-way binding failed: \(error)")
        })
        let toSource = asObservable().skippingFirst().subscribe(onNext: { [weak variable] value in
            let shouldWrite = coordinator.state.withLock { state -> Bool in
                state.applyingSource == 0 && state.lastSourceValue != value
            }
            guard shouldWrite else { return }
            do {
                try write(value)
            } catch {
                if let onError {
                    onError(error)
                } else {
                    HeadlessUIHooks.report("a two-way binding failed to write \(value): \(error)")
                }
                let restore = coordinator.state.withLock { state -> Element? in
                    guard let last = state.lastSourceValue else { return nil }
                    state.applyingSource += 1
                    return last
                }
                if let restore, let variable {
                    variable.value = restore
                    coordinator.state.withLock { $0.applyingSource -= 1 }
                }
            }
        })
        return Disposables.create(fromSource, toSource)
    }
}

final class TwoWayCoordinator<Value>: @unchecked Sendable {
    struct State {
        var lastSourceValue: Value?
        var applyingSource = 0
    }

    let state = Locked(State())
}
