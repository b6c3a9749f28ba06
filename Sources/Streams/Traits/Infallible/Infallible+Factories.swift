extension InfallibleType {
    /// An infallible sequence of one element.
    ///
    ///     just(1): 1|
    ///
    /// - Parameter element: The element.
    /// - Returns: The infallible sequence.
    public static func just(_ element: Element) -> Infallible<Element> {
        Infallible(.just(element))
    }

    /// An infallible sequence of one element, sent on `scheduler`.
    ///
    ///     just(1, scheduler: s): -1|
    ///
    /// - Parameters:
    ///   - element: The element.
    ///   - scheduler: Where the element and the completion are sent.
    /// - Returns: The infallible sequence.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Infallible<Element> {
        Infallible(.just(element, scheduler: scheduler))
    }

    /// An infallible sequence that sends nothing and never ends.
    ///
    ///     never(): ----------
    ///
    /// - Returns: The infallible sequence.
    public static func never() -> Infallible<Element> {
        Infallible(.never())
    }

    /// An infallible sequence that completes at once.
    ///
    ///     empty(): |
    ///
    /// - Returns: The infallible sequence.
    public static func empty() -> Infallible<Element> {
        Infallible(.empty())
    }

    /// An infallible sequence made afresh by `observableFactory` for each subscription.
    ///
    ///     deferred { .just(counter.next()) }: 1| for the first subscriber, 2| for the second
    ///
    /// A factory that throws makes the sequence fail, which ``Hooks/programmingErrorHandler``
    /// reports.
    ///
    /// - Parameter observableFactory: Makes the sequence a subscriber gets.
    /// - Returns: The infallible sequence.
    public static func deferred(_ observableFactory: @escaping () throws -> Infallible<Element>) -> Infallible<Element> {
        Infallible(.deferred { try observableFactory().asObservable() })
    }
}

extension Infallible {
    /// An infallible sequence of the given elements, in order.
    ///
    ///     of(1, 2, 3): 123|
    ///
    /// - Parameters:
    ///   - elements: The elements.
    ///   - scheduler: Where the elements are sent; the current thread's trampoline by default.
    /// - Returns: The infallible sequence.
    public static func of(_ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<Element> {
        Infallible(Observable.from(elements, scheduler: scheduler))
    }

    /// An infallible sequence of the elements of `array`, in order.
    ///
    ///     from([1, 2, 3]): 123|
    ///
    /// - Parameters:
    ///   - array: The elements.
    ///   - scheduler: Where the elements are sent; the current thread's trampoline by default.
    /// - Returns: The infallible sequence.
    public static func from(_ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<Element> {
        Infallible(Observable.from(array, scheduler: scheduler))
    }

    /// An infallible sequence of the elements of `sequence`, in order.
    ///
    ///     from(1...3): 123|
    ///
    /// - Parameters:
    ///   - sequence: The elements.
    ///   - scheduler: Where the elements are sent; the current thread's trampoline by default.
    /// - Returns: The infallible sequence.
    public static func from<Source: Swift.Sequence>(_ sequence: Source, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<Element> where Source.Element == Element {
        Infallible(Observable.from(sequence, scheduler: scheduler))
    }

    /// An infallible sequence that sends `element` again and again, without end.
    ///
    ///     repeatElement(7): 7777777…
    ///
    /// - Parameters:
    ///   - element: The element to repeat.
    ///   - scheduler: Where the elements are sent; the current thread's trampoline by default.
    /// - Returns: The infallible sequence; dispose it (or `take` from it) to stop.
    public static func repeatElement(_ element: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<Element> {
        Infallible(Observable.repeatElement(element, scheduler: scheduler))
    }
}

extension Infallible where Element: FixedWidthInteger {
    /// An infallible sequence that sends 0, 1, 2… once every `period`.
    ///
    ///     interval(.seconds(1)): -0-1-2-3…
    ///
    /// - Parameters:
    ///   - period: The time between two elements, and before the first.
    ///   - scheduler: Runs the timer.
    /// - Returns: The infallible sequence; it never completes.
    public static func interval(_ period: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(Observable.interval(period, scheduler: scheduler))
    }

    /// An infallible sequence that sends 0 after `dueTime`, then, with a `period`, 1, 2… once
    /// every period.
    ///
    ///     timer(.seconds(2)):                       --0|
    ///     timer(.seconds(2), period: .seconds(1)):  --0-1-2…
    ///
    /// - Parameters:
    ///   - dueTime: The time before the first element.
    ///   - period: The time between later elements; `nil` completes after the first.
    ///   - scheduler: Runs the timer.
    /// - Returns: The infallible sequence.
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(Observable.timer(dueTime, period: period, scheduler: scheduler))
    }
}
