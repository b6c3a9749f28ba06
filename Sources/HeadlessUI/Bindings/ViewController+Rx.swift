import Streams

@MainActor
extension Reactive where Base: ViewController {
    /// Each `viewWillAppear(_:)` of the screen, with its `animated` flag (RxViewController's
    /// `rx.viewWillAppear`); completes when the screen is deallocated.
    ///
    ///     screen.rx.viewWillAppear.subscribe(onNext: { _ in print("appearing") })
    public var viewWillAppear: ControlEvent<Bool> { appearance(.willAppear) }

    /// Each `viewDidAppear(_:)` of the screen; completes when the screen is deallocated.
    public var viewDidAppear: ControlEvent<Bool> { appearance(.didAppear) }

    /// Each `viewWillDisappear(_:)` of the screen; completes when the screen is deallocated.
    public var viewWillDisappear: ControlEvent<Bool> { appearance(.willDisappear) }

    /// Each `viewDidDisappear(_:)` of the screen; completes when the screen is deallocated.
    public var viewDidDisappear: ControlEvent<Bool> { appearance(.didDisappear) }

    /// Whether the screen is on screen: its ``ViewController/isVisible`` now, then `true` at
    /// each `viewDidAppear` and `false` at each `viewWillDisappear` (RxViewController's
    /// `rx.isVisible`), without repeats. Work that should run only while the screen shows —
    /// polling — is `isVisible.flatMapLatest { $0 ? work : .empty() }`.
    public var isVisible: Observable<Bool> {
        let screen = base
        let changes = base.lifecycle.compactMap { event -> Bool? in
            switch event {
            case .didAppear: true
            case .willDisappear: false
            case .willAppear, .didDisappear: nil
            }
        }
        return Observable.deferred { [weak screen] in
            changes.startWith(screen?.isVisible ?? false)
        }
        .distinctUntilChanged()
    }

    private func appearance(_ kind: ViewController.Lifecycle) -> ControlEvent<Bool> {
        ControlEvent(events: base.lifecycle.filter { $0 == kind }.map { _ in false })
    }
}
