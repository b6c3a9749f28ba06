extension ObservableType {
    /// A sequence built like a `for` loop: it sends `initialState`, then each state that
    /// `iterate` makes from the one before, while `condition` holds.
    ///
    ///     generate(initialState: 1, condition: { $0 < 20 }, iterate: { $0 * 3 }): 1-3-9|
    ///
    /// An error thrown by `condition` or `iterate` ends the sequence with that error.
    ///
    /// - Parameters:
    ///   - initialState: The first state.
    ///   - condition: Checked before each state is sent; the sequence completes when it fails.
    ///   - scheduler: Where the states are delivered; the default trampolines on the current
    ///     thread.
    ///   - iterate: Makes the next state from the current one.
    /// - Returns: The sequence of states.
    public static func generate(
        initialState: Element,
        condition: @escaping (Element) throws -> Bool,
        scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance,
        iterate: @escaping (Element) throws -> Element
    ) -> Observable<Element> {
        Generate(initialState: initialState, condition: condition, iterate: iterate, scheduler: scheduler)
    }
}

final class Generate<Element>: Producer<Element>, @unchecked Sendable {
    private let initialState: Element
    private let condition: (Element) throws -> Bool
    private let iterate: (Element) throws -> Element
    private let scheduler: ImmediateSchedulerType

    init(initialState: Element, condition: @escaping (Element) throws -> Bool, iterate: @escaping (Element) throws -> Element, scheduler: ImmediateSchedulerType) {
        self.initialState = initialState
        self.condition = condition
        self.iterate = iterate
        self.scheduler = scheduler
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = ProducerSink(observer: observer, handle: handle)
        let condition = self.condition
        let iterate = self.iterate
        // The state carried between steps: the next candidate and whether it still needs `iterate`.
        let subscription = scheduler.scheduleRecursive((state: initialState, isFirst: true)) { step, recurse in
            do {
                let state = step.isFirst ? step.state : try iterate(step.state)
                if try condition(state) {
                    sink.forwardOn(.next(state))
                    recurse((state, false))
                } else {
                    sink.forwardOn(.completed)
                    sink.dispose()
                }
            } catch {
                sink.forwardOn(.error(error))
                sink.dispose()
            }
        }
        sink.setUpstream(subscription)
        return sink
    }
}
