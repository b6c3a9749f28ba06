import Streams

/// An observable whose events are scripted in virtual time and which logs its subscriptions.
public class TestableObservable<Element>: ObservableType, @unchecked Sendable {
    /// The element type.
    public typealias Element = Element

    /// The scheduler that runs the script.
    public let testScheduler: TestScheduler
    /// Every subscription, with its start and (once disposed) end time.
    public internal(set) var subscriptions: [Subscription] = []
    /// The scripted events.
    public let recordedEvents: [Recorded<Event<Element>>]

    init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        self.testScheduler = testScheduler
        self.recordedEvents = recordedEvents
    }

    /// Subscribes `observer` to the script.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        fatalError("Abstract method")
    }

    /// The script as an `Observable`.
    public func asObservable() -> Observable<Element> {
        Observable.create { observer in self.subscribe(observer) }
    }
}

final class HotObservable<Element>: TestableObservable<Element>, @unchecked Sendable {
    private var observers: [(key: Int, observer: AnyObserver<Element>)] = []
    private var nextKey = 0

    override init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        super.init(testScheduler: testScheduler, recordedEvents: recordedEvents)
        for recorded in recordedEvents {
            testScheduler.scheduleAt(recorded.time) { [weak self] in
                guard let self else { return }
                for entry in self.observers { entry.observer.on(recorded.value) }
            }
        }
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let key = nextKey
        nextKey += 1
        observers.append((key, AnyObserver(observer)))
        subscriptions.append(Subscription(testScheduler.clock))
        let index = subscriptions.count - 1
        return Disposables.create { [weak self] in
            guard let self else { return }
            self.observers.removeAll { $0.key == key }
            let start = self.subscriptions[index].subscribe
            self.subscriptions[index] = Subscription(start, self.testScheduler.clock)
        }
    }
}

final class ColdObservable<Element>: TestableObservable<Element>, @unchecked Sendable {
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subscriptions.append(Subscription(testScheduler.clock))
        let index = subscriptions.count - 1
        let scheduled = CompositeDisposable()
        for recorded in recordedEvents {
            let disposable = testScheduler.scheduleRelativeVirtual((), dueTime: recorded.time) { _ in
                observer.on(recorded.value)
                return Disposables.create()
            }
            _ = scheduled.insert(disposable)
        }
        return Disposables.create { [weak self] in
            scheduled.dispose()
            guard let self else { return }
            let start = self.subscriptions[index].subscribe
            self.subscriptions[index] = Subscription(start, self.testScheduler.clock)
        }
    }
}
