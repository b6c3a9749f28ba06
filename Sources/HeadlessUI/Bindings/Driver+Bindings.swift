import Streams

extension ControlEvent {
    /// The events as a `Driver` (they never fail and already come on the main scheduler).
    ///
    /// - Returns: The driver.
    public func asDriver() -> Driver<Element> {
        asDriver(onErrorDriveWith: .empty())
    }

    /// The events as a `Signal`: no replay to new observers.
    ///
    /// - Returns: The signal.
    public func asSignal() -> Signal<Element> {
        asSignal(onErrorSignalWith: .empty())
    }

    /// The events as an `Infallible` (RxCocoa 6's `asInfallible()`): the same elements, on the
    /// main scheduler, without sharing.
    ///
    /// - Returns: The infallible sequence.
    public func asInfallible() -> Infallible<Element> {
        asInfallible(onErrorFallbackTo: .empty())
    }
}

extension ControlProperty {
    /// The property's values as a `Driver`.
    ///
    /// - Returns: The driver.
    public func asDriver() -> Driver<Element> {
        asDriver(onErrorDriveWith: .empty())
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// Hands the driver to a curried binding function with its second argument, e.g.
    /// `items.drive(tableView.rx.items(cellIdentifier: "Cell")) { row, item, cell in … }`.
    ///
    /// - Parameters:
    ///   - with: A curried function that consumes the sequence, then the argument.
    ///   - curriedArgument: The second argument, usually a cell configuration closure.
    /// - Returns: What the binding returns, usually a disposable.
    public func drive<R1, R2>(_ with: (Observable<Element>) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        with(asObservable())(curriedArgument)
    }
}
