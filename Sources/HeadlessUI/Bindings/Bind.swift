import Streams

extension ObservableType {
    /// Subscribes the observers to this sequence; the UI way of saying `subscribe`.
    ///
    /// `--1--2--|` bound to a label sets its text to 1, then 2.
    ///
    /// - Parameter observers: Receive every event.
    /// - Returns: The subscription.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        subscribe { event in observers.forEach { $0.on(event) } }
    }

    /// Subscribes the observers of optional values to this sequence.
    ///
    /// - Parameter observers: Receive every element wrapped in an optional.
    /// - Returns: The subscription.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        map { Optional($0) }.subscribe { event in observers.forEach { $0.on(event) } }
    }

    /// Passes this sequence to `binder`, e.g. `items.bind(to: tableView.rx.items(dataSource:))`.
    ///
    /// - Parameter binder: A function that consumes the sequence.
    /// - Returns: What `binder` returns, usually a disposable.
    public func bind<Result>(to binder: (Self) -> Result) -> Result {
        binder(self)
    }

    /// Passes this sequence and `curriedArgument` to `binder`, e.g.
    /// `items.bind(to: tableView.rx.items(cellIdentifier: "Cell")) { row, item, cell in … }`.
    ///
    /// - Parameters:
    ///   - binder: A curried function that consumes the sequence, then the argument.
    ///   - curriedArgument: The second argument, usually a cell configuration closure.
    /// - Returns: What `binder` returns, usually a disposable.
    public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        binder(self)(curriedArgument)
    }

    /// Subscribes `onNext` to the elements; an error is a programming error.
    ///
    /// - Parameter onNext: Called for each element.
    /// - Returns: The subscription.
    public func bind(onNext: @escaping (Element) -> Void) -> Disposable {
        subscribe(onNext: onNext, onError: { error in HeadlessUIHooks.report("Binding error: \(error)") })
    }

    /// Subscribes `onNext`, which also receives `object`, held weakly: once it is gone, elements
    /// are ignored. An error is a programming error, as for ``bind(onNext:)``.
    ///
    ///     --1--2--|   bind(with: self) { owner, n in owner.count = n }   owner.count: 1, then 2
    ///
    /// - Parameters:
    ///   - object: The object handed to `onNext`, held weakly.
    ///   - onNext: Called with the object and each element.
    /// - Returns: The subscription.
    public func bind<Object: AnyObject>(with object: Object, onNext: @escaping (Object, Element) -> Void) -> Disposable {
        bind(onNext: { [weak object] element in
            guard let object else { return }
            onNext(object, element)
        })
    }
}
