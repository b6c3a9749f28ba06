import Streams
import StreamsTesting
import TestSupport
import Testing

/// The typed engine of the fixed-arity `zip` queues every source's elements by its type: these
/// run each arity from 2 to 8, in both the selector and the tuple form, with element types of
/// different sizes and alignments (a class, an optional, an array, a 32-byte vector, an empty
/// tuple), and with the first source three elements ahead of the others (so its queue outgrows
/// the room kept for it in the sink), so a value read from the wrong place, out of order, or not
/// moved, retained or released as its type needs, shows up as a wrong element, a crash or a leak.
@Suite(.resourceCheck) struct ZipArityTests {
    /// A reference-counted element whose release the tests can see.
    final class Token: CustomStringConvertible {
        let name: String
        init(_ name: String) { self.name = name }
        var description: String { name }
    }

    /// Source 0 sends its three elements at 205, 206 and 207; source `index` > 0 sends them at
    /// 210 + 10 × index, 300 + index and 350 + index. Every source completes at 400.
    private static func source<T>(_ scheduler: TestScheduler, _ index: Int, _ values: [T]) -> TestableObservable<T> {
        let times = index == 0 ? [205, 206, 207] : [210 + 10 * index, 300 + index, 350 + index]
        let events: [Recorded<Event<T>>] = Swift.zip(times, values).map { .next($0, $1) } + [.completed(400)]
        return scheduler.createHotObservable(events)
    }

    /// What an arity-n test expects: the n-th elements of every source, joined, when the last
    /// source sends its n-th, then completion when every source has completed.
    private static func expected(_ arity: Int, _ columns: [[String]]) -> [Recorded<Event<String>>] {
        let rows = (0 ..< 3).map { row in columns.map { $0[row] }.joined(separator: "|") }
        return [.next(200 + 10 * arity, rows[0]), .next(299 + arity, rows[1]), .next(349 + arity, rows[2]), .completed(400)]
    }

    /// Runs `make` with a fresh scheduler and checks it against ``expected(_:_:)``.
    private static func check(_ columns: [[String]], sourceLocation: SourceLocation = #_sourceLocation, _ make: @escaping (TestScheduler) -> Observable<String>) {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { make(scheduler) }
        #expect(res.events == expected(columns.count, columns), sourceLocation: sourceLocation)
    }

    private static func d<T>(_ value: T) -> String { String(describing: value) }

    @Test func twoSources() {
        let a = [Token("a"), Token("b"), Token("c")]
        let b: [Int?] = [1, nil, 3]
        let columns = [a.map(Self.d), b.map(Self.d)]
        Self.check(columns) { s in Observable.zip(Self.source(s, 0, a), Self.source(s, 1, b)) { [Self.d($0), Self.d($1)].joined(separator: "|") } }
        Self.check(columns) { s in Observable.zip(Self.source(s, 0, a), Self.source(s, 1, b)).map { "\($0.0)|\(String(describing: $0.1))" } }
    }

    @Test func threeSources() {
        let a: [SIMD4<Double>] = [SIMD4(1, 2, 3, 4), SIMD4(5, 6, 7, 8), SIMD4(9, 10, 11, 12)]
        let b: [UInt8] = [1, 2, 3]
        let c = [[Token("c")], [], [Token("d"), Token("e")]]
        let columns = [a.map(Self.d), b.map(Self.d), c.map(Self.d)]
        Self.check(columns) { s in
            Observable.zip(Self.source(s, 0, a), Self.source(s, 1, b), Self.source(s, 2, c)) { [Self.d($0), Self.d($1), Self.d($2)].joined(separator: "|") }
        }
        Self.check(columns) { s in
            Observable.zip(Self.source(s, 0, a), Self.source(s, 1, b), Self.source(s, 2, c)).map { "\($0.0)|\($0.1)|\($0.2)" }
        }
    }

    @Test func fourSources() {
        let a = [true, false, true]
        let b: [Void] = [(), (), ()]
        let c = [Token("c"), Token("d"), Token("e")]
        let d: [Int16] = [-4, -5, -6]
        let columns = [a.map(Self.d), b.map(Self.d), c.map(Self.d), d.map(Self.d)]
        Self.check(columns) { s in
            Observable.zip(Self.source(s, 0, a), Self.source(s, 1, b), Self.source(s, 2, c), Self.source(s, 3, d)) {
                [Self.d($0), Self.d($1), Self.d($2), Self.d($3)].joined(separator: "|")
            }
        }
        Self.check(columns) { s in
            let x0 = Self.source(s, 0, a)
            let x1 = Self.source(s, 1, b)
            let x2 = Self.source(s, 2, c)
            let x3 = Self.source(s, 3, d)
            return Observable.zip(x0, x1, x2, x3)
                .map { "\($0.0)|\($0.1)|\($0.2)|\($0.3)" }
        }
    }

    @Test func fiveSources() {
        let a = ["a", "bb", String(repeating: "long string ", count: 4)]
        let b = [2.5, 3.5, 4.5]
        let c = [Token("c"), Token("d"), Token("e")]
        let d: [Token?] = [Token("x"), nil, Token("z")]
        let e: [Int8] = [5, 6, 7]
        let columns = [a.map(Self.d), b.map(Self.d), c.map(Self.d), d.map(Self.d), e.map(Self.d)]
        Self.check(columns) { s in
            Observable.zip(Self.source(s, 0, a), Self.source(s, 1, b), Self.source(s, 2, c), Self.source(s, 3, d), Self.source(s, 4, e)) {
                [Self.d($0), Self.d($1), Self.d($2), Self.d($3), Self.d($4)].joined(separator: "|")
            }
        }
        Self.check(columns) { s in
            let x0 = Self.source(s, 0, a)
            let x1 = Self.source(s, 1, b)
            let x2 = Self.source(s, 2, c)
            let x3 = Self.source(s, 3, d)
            let x4 = Self.source(s, 4, e)
            return Observable.zip(x0, x1, x2, x3, x4)
                .map { "\($0.0)|\($0.1)|\($0.2)|\(String(describing: $0.3))|\($0.4)" }
        }
    }

    @Test func sixSources() {
        let a = [Token("a"), Token("b"), Token("c")]
        let b: [SIMD4<Double>] = [SIMD4(1, 1, 1, 1), SIMD4(2, 2, 2, 2), SIMD4(3, 3, 3, 3)]
        let c: [UInt8] = [3, 4, 5]
        let d: [Void] = [(), (), ()]
        let e = [[1, 2], [3], []]
        let f: [String?] = [nil, "f", nil]
        let columns = [a.map(Self.d), b.map(Self.d), c.map(Self.d), d.map(Self.d), e.map(Self.d), f.map(Self.d)]
        Self.check(columns) { s in
            Observable.zip(Self.source(s, 0, a), Self.source(s, 1, b), Self.source(s, 2, c), Self.source(s, 3, d), Self.source(s, 4, e), Self.source(s, 5, f)) {
                [Self.d($0), Self.d($1), Self.d($2), Self.d($3), Self.d($4), Self.d($5)].joined(separator: "|")
            }
        }
        Self.check(columns) { s in
            let x0 = Self.source(s, 0, a)
            let x1 = Self.source(s, 1, b)
            let x2 = Self.source(s, 2, c)
            let x3 = Self.source(s, 3, d)
            let x4 = Self.source(s, 4, e)
            let x5 = Self.source(s, 5, f)
            return Observable.zip(x0, x1, x2, x3, x4, x5)
                .map { "\($0.0)|\($0.1)|\($0.2)|\($0.3)|\($0.4)|\(String(describing: $0.5))" }
        }
    }

    @Test func sevenSources() {
        let a: [UInt8] = [1, 2, 3]
        let b: [SIMD4<Double>] = [SIMD4(2, 2, 2, 2), SIMD4(3, 3, 3, 3), SIMD4(4, 4, 4, 4)]
        let c: [UInt8] = [3, 4, 5]
        let d = [Token("d"), Token("e"), Token("f")]
        let e: [UInt16] = [5, 6, 7]
        let f = ["f", "g", "h"]
        let g: [Void] = [(), (), ()]
        let columns = [a.map(Self.d), b.map(Self.d), c.map(Self.d), d.map(Self.d), e.map(Self.d), f.map(Self.d), g.map(Self.d)]
        Self.check(columns) { s in
            Observable.zip(Self.source(s, 0, a), Self.source(s, 1, b), Self.source(s, 2, c), Self.source(s, 3, d), Self.source(s, 4, e), Self.source(s, 5, f), Self.source(s, 6, g)) {
                [Self.d($0), Self.d($1), Self.d($2), Self.d($3), Self.d($4), Self.d($5), Self.d($6)].joined(separator: "|")
            }
        }
        Self.check(columns) { s in
            let x0 = Self.source(s, 0, a)
            let x1 = Self.source(s, 1, b)
            let x2 = Self.source(s, 2, c)
            let x3 = Self.source(s, 3, d)
            let x4 = Self.source(s, 4, e)
            let x5 = Self.source(s, 5, f)
            let x6 = Self.source(s, 6, g)
            return Observable.zip(x0, x1, x2, x3, x4, x5, x6)
                .map { "\($0.0)|\($0.1)|\($0.2)|\($0.3)|\($0.4)|\($0.5)|\($0.6)" }
        }
    }

    @Test func eightSources() {
        let a: [[Token]] = [[Token("a")], [Token("b"), Token("c")], []]
        let b = ["b", "c", "d"]
        let c: [SIMD4<Double>] = [SIMD4(0, 0, 0, 1), SIMD4(0, 0, 1, 0), SIMD4(0, 1, 0, 0)]
        let d = [Token("d"), Token("e"), Token("f")]
        let e: [UInt8] = [5, 6, 7]
        let f: [Void] = [(), (), ()]
        let g: [Int?] = [nil, 7, nil]
        let h = [false, true, false]
        let columns = [a.map(Self.d), b.map(Self.d), c.map(Self.d), d.map(Self.d), e.map(Self.d), f.map(Self.d), g.map(Self.d), h.map(Self.d)]
        Self.check(columns) { s in
            Observable.zip(
                Self.source(s, 0, a), Self.source(s, 1, b), Self.source(s, 2, c), Self.source(s, 3, d),
                Self.source(s, 4, e), Self.source(s, 5, f), Self.source(s, 6, g), Self.source(s, 7, h)
            ) { a, b, c, d, e, f, g, h in
                [Self.d(a), Self.d(b), Self.d(c), Self.d(d), Self.d(e), Self.d(f), Self.d(g), Self.d(h)].joined(separator: "|")
            }
        }
        Self.check(columns) { s in
            let x0 = Self.source(s, 0, a)
            let x1 = Self.source(s, 1, b)
            let x2 = Self.source(s, 2, c)
            let x3 = Self.source(s, 3, d)
            let x4 = Self.source(s, 4, e)
            let x5 = Self.source(s, 5, f)
            let x6 = Self.source(s, 6, g)
            let x7 = Self.source(s, 7, h)
            return Observable.zip(x0, x1, x2, x3, x4, x5, x6, x7)
            .map { "\($0.0)|\($0.1)|\($0.2)|\($0.3)|\($0.4)|\($0.5)|\(String(describing: $0.6))|\($0.7)" }
        }
    }

    @Test(arguments: 2 ... 8) func completesOnlyOnceEverySourceHasWhicheverCompletesFirst(arity: Int) {
        // Source `first` sends two elements and completes at once; its queued elements still
        // pair with the others' later ones, and the zip completes with the last source.
        for first in 0 ..< arity {
            let scheduler = TestScheduler(initialClock: 0)
            let sources = (0 ..< arity).map { index in
                scheduler.createHotObservable(index == first
                    ? [.next(210, 1), .next(211, 2), .completed(220)]
                    : [.next(230, 10), .next(240 + index, 20), .completed(400 + index)])
            }
            let res = scheduler.start { Self.zipped(sources) }
            let last = first == arity - 1 ? 400 + arity - 2 : 400 + arity - 1
            #expect(res.events == [
                .next(230, 1 + 10 * (arity - 1)),
                .next(240 + (first == arity - 1 ? arity - 2 : arity - 1), 2 + 20 * (arity - 1)),
                .completed(last),
            ], "first \(first)")
            for (index, source) in sources.enumerated() {
                #expect(source.subscriptions == [Subscription(200, index == first ? 220 : 400 + index)], "first \(first)")
            }
        }
    }

    @Test(arguments: 2 ... 8) func anErrorFromAnySourceEndsEverything(arity: Int) {
        for failing in 0 ..< arity {
            let scheduler = TestScheduler(initialClock: 0)
            let sources = (0 ..< arity).map { index in
                scheduler.createHotObservable(index == failing
                    ? [.next(210, index), .next(250, 100), .error(300, testError)]
                    : [.next(210, index), .completed(400)])
            }
            let res = scheduler.start { Self.zipped(sources) }
            #expect(res.events == [.next(210, (0 ..< arity).reduce(0, +)), .error(300, testError)], "failing \(failing)")
            for source in sources {
                #expect(source.subscriptions == [Subscription(200, 300)], "failing \(failing)")
            }
        }
    }

    @Test(arguments: 2 ... 8) func aThrowingSelectorEndsWithItsErrorAndDisposesEverySource(arity: Int) {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (0 ..< arity).map { index in
            scheduler.createHotObservable([.next(210, 1), .next(250 + index, 2), .completed(400)])
        }
        let res = scheduler.start { Self.zipped(sources, throwingAbove: arity) }
        #expect(res.events == [.next(210, arity), .error(249 + arity, TestError.code(2 * arity))])
        for source in sources {
            #expect(source.subscriptions == [Subscription(200, 249 + arity)])
        }
    }

    @Test(arguments: 2 ... 8) func disposalReleasesTheSourcesAndTheQueuedValues(arity: Int) {
        weak var delivered: Token?
        weak var queued: Token?
        let subjects = (0 ..< arity).map { _ in PublishSubject<Token>() }
        var received: [String] = []
        var subscription: Disposable?
        do {
            let first = Token("t")
            delivered = first
            subscription = Self.zippedTokens(subjects).subscribe(onNext: { received.append($0) })
            // The first source runs ahead by four: its queue outgrows its first room.
            subjects[0].onNext(first)
            for index in 0 ..< 4 {
                let token = Token("q\(index)")
                if index == 3 { queued = token }
                subjects[0].onNext(token)
            }
            for subject in subjects.dropFirst() { subject.onNext(first) }
        }
        #expect(received == [Array(repeating: "t", count: arity).joined()])
        #expect(delivered == nil, "a delivered combination is not kept")
        #expect(queued != nil, "the sink keeps the waiting elements while subscribed")
        subscription?.dispose()
        #expect(queued == nil, "the waiting elements are released on disposal")
        for subject in subjects {
            subject.onNext(Token("late"))
            #expect(!subject.hasObservers)
        }
        #expect(received.count == 1)
    }

    @Test func completionReleasesTheQueuedValues() {
        weak var queued: Token?
        let a = PublishSubject<Token>()
        let b = PublishSubject<Int>()
        var events: [String] = []
        let subscription = Observable.zip(a, b).subscribe(onNext: { events.append("\($0.0)\($0.1)") }, onError: { _ in events.append("x") })
        do {
            let token = Token("q")
            queued = token
            a.onNext(Token("p"))
            a.onNext(token)
        }
        b.onNext(1)
        #expect(queued != nil)
        b.onError(testError)
        #expect(events == ["p1", "x"])
        #expect(queued == nil)
        subscription.dispose()
    }

    /// A source that calls its observer at once, on the caller's thread, even from within a
    /// delivery (a subject would queue a re-entrant call until its delivery ends).
    private final class Direct<Element>: ObservableType {
        private var observers: [AnyObserver<Element>] = []

        func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
            observers.append(AnyObserver(observer))
            let index = observers.count - 1
            return Disposables.create { [weak self] in self?.observers[index] = AnyObserver { _ in } }
        }

        func send(_ element: Element) { for observer in observers { observer.onNext(element) } }
        func complete() { for observer in observers { observer.onCompleted() } }
    }

    @Test func aSelectorThatFeedsSourcesQueuesInOrder() {
        // While the selector runs, it feeds both sources: those combinations are decided then
        // and delivered after the current one, in order.
        let a = Direct<Int>()
        let b = Direct<String>()
        var received: [String] = []
        let subscription = Observable.zip(a, b) { x, y -> String in
            if x == 1 {
                a.send(2)
                b.send("y")
                a.send(3)
                b.send("z")
            }
            return "\(x)\(y)"
        }
        .subscribe(onNext: { received.append($0) })
        a.send(1)
        b.send("x")
        a.send(4)
        b.send("w")
        #expect(received == ["1x", "2y", "3z", "4w"])
        subscription.dispose()
    }

    @Test func anObserverThatFeedsSourcesQueuesInOrder() {
        let a = Direct<Int>()
        let b = Direct<Int>()
        var received: [Int] = []
        let subscription = Observable.zip(a, b, a) { $0 * 100 + $1 * 10 + $2 }
            .subscribe(onNext: { value in
                // Feeds the sources before noting the value: the combination decided then
                // must still come after this one.
                if value < 500 {
                    a.send(value / 100 + 1)
                    b.send(value / 100 + 1)
                }
                received.append(value)
            })
        a.send(1)
        b.send(1)
        #expect(received == [111, 222, 333, 444, 555])
        subscription.dispose()
    }

    @Test func completionDecidedWhileDeliveringFollowsTheQueuedElements() {
        let a = Direct<Int>()
        let b = Direct<Int>()
        var events: [String] = []
        let subscription = Observable.zip(a, b) { x, y -> Int in
            if x == 1 {
                a.send(2)
                b.send(20)
                a.complete()
                b.complete()
            }
            return x + y
        }
        .subscribe(onNext: { events.append("\($0)") }, onCompleted: { events.append("|") })
        a.send(1)
        b.send(10)
        #expect(events == ["11", "22", "|"])
        subscription.dispose()
    }

    @Test func anElementArrivingAfterDisposalDuringDeliveryIsDropped() {
        let a = Direct<Int>()
        let b = Direct<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = Observable.zip(a, b) { x, y -> Int in
            if x == 1 {
                a.send(2)
                b.send(20)
                subscription?.dispose()
            }
            return x + y
        }
        .subscribe(onNext: { received.append($0) })
        a.send(1)
        b.send(10)
        a.send(3)
        b.send(30)
        #expect(received.isEmpty)
    }

    @Test func justSourcesSendAndCompleteAsIfSubscribed() {
        // A `just` is taken at once instead of subscribed; what comes out must be what its
        // subscription would have made: its element, then its completion, in source order.
        let scheduler = TestScheduler(initialClock: 0)
        let hot = scheduler.createHotObservable([.next(210, 3), .next(220, 4), .completed(300)])
        let res = scheduler.start { Observable.zip(Observable.just(1), Observable.just(2), hot) { $0 * 100 + $1 * 10 + $2 } }
        #expect(res.events == [.next(210, 123), .completed(300)])
        #expect(hot.subscriptions == [Subscription(200, 300)])

        let allJust = TestScheduler(initialClock: 0).start {
            Observable.zip(Observable.just("a"), Observable.just(1), Observable.just(true)).map { "\($0.0)\($0.1)\($0.2)" }
        }
        #expect(allJust.events == [.next(200, "a1true"), .completed(200)])

        // An empty source and a just: nothing to pair; completes once both have.
        let emptyFirst = TestScheduler(initialClock: 0).start {
            Observable.zip(Observable<Int>.empty(), Observable.just(1)) { $0 + $1 }
        }
        #expect(emptyFirst.events == [.completed(200)])
        // An error before a just: the just changes nothing.
        let failed = TestScheduler(initialClock: 0).start {
            Observable.zip(Observable<Int>.error(testError), Observable.just(1)) { $0 + $1 }
        }
        #expect(failed.events == [.error(200, testError)])
        // A just waits for the others and does not complete the zip alone.
        let waiting = TestScheduler(initialClock: 0)
        let late = waiting.createHotObservable([.next(250, 5), .next(260, 6)] as [Recorded<Event<Int>>])
        let waited = waiting.start { Observable.zip(late, Observable.just(1)) { $0 + $1 } }
        #expect(waited.events == [.next(250, 6)])
        #expect(late.subscriptions == [Subscription(200, 1000)])
    }

    /// An `ObservableType` that is not an `Observable`, counting its subscriptions.
    private struct Foreign: ObservableType {
        typealias Element = Int
        final class Count { var subscriptions = 0 }
        let subject = PublishSubject<Int>()
        let count = Count()

        func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Int {
            count.subscriptions += 1
            return subject.subscribe(observer)
        }
    }

    @Test func sourcesThatAreNotObservablesAreSubscribedThemselves() {
        let foreign = Foreign()
        let relay = BehaviorRelay(value: 10)
        var received: [Int] = []
        let subscription = Observable.zip(foreign, relay, Observable.just(100)) { $0 + $1 + $2 }
            .subscribe(onNext: { received.append($0) })
        #expect(foreign.count.subscriptions == 1)
        foreign.subject.onNext(1)
        foreign.subject.onNext(2)
        relay.accept(20)
        #expect(received == [111])
        subscription.dispose()
        #expect(!foreign.subject.hasObservers)
    }

    /// `sources` zipped by the fixed-arity front of their count, summing.
    private static func zipped(_ sources: [TestableObservable<Int>], throwingAbove limit: Int = .max) -> Observable<Int> {
        func check(_ sum: Int) throws -> Int {
            if sum > limit { throw TestError.code(sum) }
            return sum
        }
        let s = sources
        switch s.count {
        case 2: return Observable.zip(s[0], s[1]) { try check($0 + $1) }
        case 3: return Observable.zip(s[0], s[1], s[2]) { try check($0 + $1 + $2) }
        case 4: return Observable.zip(s[0], s[1], s[2], s[3]) { try check($0 + $1 + $2 + $3) }
        case 5: return Observable.zip(s[0], s[1], s[2], s[3], s[4]) { try check($0 + $1 + $2 + $3 + $4) }
        case 6: return Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5]) { try check($0 + $1 + $2 + $3 + $4 + $5) }
        case 7: return Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { try check($0 + $1 + $2 + $3 + $4 + $5 + $6) }
        case 8:
            return Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { a, b, c, d, e, f, g, h in
                try check(a + b + c + d + e + f + g + h)
            }
        default: fatalError("arity \(s.count)")
        }
    }

    /// `sources` zipped by the tuple front of their count, joining the tokens' names.
    private static func zippedTokens(_ s: [PublishSubject<Token>]) -> Observable<String> {
        switch s.count {
        case 2: return Observable.zip(s[0], s[1]).map { "\($0.0)\($0.1)" }
        case 3: return Observable.zip(s[0], s[1], s[2]).map { "\($0.0)\($0.1)\($0.2)" }
        case 4: return Observable.zip(s[0], s[1], s[2], s[3]).map { "\($0.0)\($0.1)\($0.2)\($0.3)" }
        case 5: return Observable.zip(s[0], s[1], s[2], s[3], s[4]).map { "\($0.0)\($0.1)\($0.2)\($0.3)\($0.4)" }
        case 6: return Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5]).map { "\($0.0)\($0.1)\($0.2)\($0.3)\($0.4)\($0.5)" }
        case 7:
            return Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6])
                .map { "\($0.0)\($0.1)\($0.2)\($0.3)\($0.4)\($0.5)\($0.6)" }
        case 8:
            return Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7])
                .map { "\($0.0)\($0.1)\($0.2)\($0.3)\($0.4)\($0.5)\($0.6)\($0.7)" }
        default: fatalError("arity \(s.count)")
        }
    }
}
