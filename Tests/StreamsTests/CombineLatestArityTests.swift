import Streams
import StreamsTesting
import TestSupport
import Testing

/// The typed engine of the fixed-arity `combineLatest` lays every source's values out by its
/// type: these run each arity from 2 to 8, in both the selector and the tuple form, with element
/// types of different sizes and alignments (a class, an optional, an array, a 32-byte-aligned
/// vector, an empty tuple), so a value read from the wrong place, or not copied, retained or
/// released as its type needs, shows up as a wrong element, a crash or a leak.
@Suite(.resourceCheck) struct CombineLatestArityTests {
    /// A reference-counted element whose release the tests can see.
    final class Token: CustomStringConvertible {
        let name: String
        init(_ name: String) { self.name = name }
        var description: String { name }
    }

    /// Source `index` sends `first` at 210 + 10 × index (and source 0 sends `second` at 300);
    /// every source completes at 400.
    private static func source<T>(_ scheduler: TestScheduler, _ index: Int, _ first: T, then second: T? = nil) -> TestableObservable<T> {
        var events: [Recorded<Event<T>>] = [.next(210 + 10 * index, first)]
        if let second { events.append(.next(300, second)) }
        events.append(.completed(400))
        return scheduler.createHotObservable(events)
    }

    /// What every arity-n test expects: all first values at 200 + 10 × n, then source 0's
    /// second one at 300, then completion when the last source completes.
    private static func expected(_ arity: Int, _ first: String, _ second: String) -> [Recorded<Event<String>>] {
        [.next(200 + 10 * arity, first), .next(300, second), .completed(400)]
    }

    @Test func twoSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = Self.source(scheduler, 0, Token("a"), then: Token("A"))
        let b = Self.source(scheduler, 1, Optional<Int>.none)
        let res = scheduler.start { Observable.combineLatest(a, b) { "\($0)|\(String(describing: $1))" } }
        #expect(res.events == Self.expected(2, "a|nil", "A|nil"))
        let tuples = TestScheduler(initialClock: 0)
        let c = Self.source(tuples, 0, 1, then: 2)
        let d = Self.source(tuples, 1, "d")
        let tupleRes = tuples.start { Observable.combineLatest(c, d).map { "\($0.0)|\($0.1)" } }
        #expect(tupleRes.events == Self.expected(2, "1|d", "2|d"))
    }

    @Test func threeSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = Self.source(scheduler, 0, UInt8(1), then: UInt8(2))
        let b = Self.source(scheduler, 1, SIMD4<Double>(1, 2, 3, 4))
        let c = Self.source(scheduler, 2, [Token("c")])
        let res = scheduler.start { Observable.combineLatest(a, b, c) { "\($0)|\($1.sum())|\($2)" } }
        #expect(res.events == Self.expected(3, "1|10.0|[c]", "2|10.0|[c]"))
        let tuples = TestScheduler(initialClock: 0)
        let d = Self.source(tuples, 0, UInt8(1), then: UInt8(2))
        let e = Self.source(tuples, 1, SIMD4<Double>(1, 2, 3, 4))
        let f = Self.source(tuples, 2, [Token("c")])
        let tupleRes = tuples.start { Observable.combineLatest(d, e, f).map { "\($0.0)|\($0.1.sum())|\($0.2)" } }
        #expect(tupleRes.events == Self.expected(3, "1|10.0|[c]", "2|10.0|[c]"))
    }

    @Test func fourSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = Self.source(scheduler, 0, true, then: false)
        let b = Self.source(scheduler, 1, ())
        let c = Self.source(scheduler, 2, Token("c"))
        let d = Self.source(scheduler, 3, Int16(-4))
        let res = scheduler.start { Observable.combineLatest(a, b, c, d) { "\($0)|\($1)|\($2)|\($3)" } }
        #expect(res.events == Self.expected(4, "true|()|c|-4", "false|()|c|-4"))
        let tuples = TestScheduler(initialClock: 0)
        let e = Self.source(tuples, 0, true, then: false)
        let f = Self.source(tuples, 1, ())
        let g = Self.source(tuples, 2, Token("c"))
        let h = Self.source(tuples, 3, Int16(-4))
        let tupleRes = tuples.start { Observable.combineLatest(e, f, g, h).map { "\($0.0)|\($0.1)|\($0.2)|\($0.3)" } }
        #expect(tupleRes.events == Self.expected(4, "true|()|c|-4", "false|()|c|-4"))
    }

    @Test func fiveSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = Self.source(scheduler, 0, "a", then: "A")
        let b = Self.source(scheduler, 1, 2.5)
        let c = Self.source(scheduler, 2, Token("c"))
        let d = Self.source(scheduler, 3, Optional(Token("d")))
        let e = Self.source(scheduler, 4, Int8(5))
        let res = scheduler.start {
            Observable.combineLatest(a, b, c, d, e) { "\($0)|\($1)|\($2)|\($3!)|\($4)" }
        }
        #expect(res.events == Self.expected(5, "a|2.5|c|d|5", "A|2.5|c|d|5"))
        let tuples = TestScheduler(initialClock: 0)
        let f = Self.source(tuples, 0, "a", then: "A")
        let g = Self.source(tuples, 1, 2.5)
        let h = Self.source(tuples, 2, Token("c"))
        let i = Self.source(tuples, 3, Optional(Token("d")))
        let j = Self.source(tuples, 4, Int8(5))
        let tupleRes = tuples.start {
            Observable.combineLatest(f, g, h, i, j).map { "\($0.0)|\($0.1)|\($0.2)|\($0.3!)|\($0.4)" }
        }
        #expect(tupleRes.events == Self.expected(5, "a|2.5|c|d|5", "A|2.5|c|d|5"))
    }

    @Test func sixSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (0 ..< 6).map { Self.source(scheduler, $0, "\($0)", then: $0 == 0 ? "X" : nil) }
        let res = scheduler.start {
            Observable.combineLatest(sources[0], sources[1], sources[2], sources[3], sources[4], sources[5]) {
                [$0, $1, $2, $3, $4, $5].joined(separator: "|")
            }
        }
        #expect(res.events == Self.expected(6, "0|1|2|3|4|5", "X|1|2|3|4|5"))
        let tuples = TestScheduler(initialClock: 0)
        let a = Self.source(tuples, 0, Token("a"), then: Token("A"))
        let b = Self.source(tuples, 1, SIMD4<Double>(1, 1, 1, 1))
        let c = Self.source(tuples, 2, UInt8(3))
        let d = Self.source(tuples, 3, ())
        let e = Self.source(tuples, 4, [1, 2])
        let f = Self.source(tuples, 5, Optional<String>.none)
        let tupleRes = tuples.start {
            Observable.combineLatest(a, b, c, d, e, f).map { "\($0.0)|\($0.1.sum())|\($0.2)|\($0.3)|\($0.4)|\(String(describing: $0.5))" }
        }
        #expect(tupleRes.events == Self.expected(6, "a|4.0|3|()|[1, 2]|nil", "A|4.0|3|()|[1, 2]|nil"))
    }

    @Test func sevenSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = Self.source(scheduler, 0, UInt8(1), then: UInt8(9))
        let b = Self.source(scheduler, 1, SIMD4<Double>(2, 2, 2, 2))
        let c = Self.source(scheduler, 2, UInt8(3))
        let d = Self.source(scheduler, 3, Token("d"))
        let e = Self.source(scheduler, 4, UInt16(5))
        let f = Self.source(scheduler, 5, "f")
        let g = Self.source(scheduler, 6, ())
        let res = scheduler.start {
            Observable.combineLatest(a, b, c, d, e, f, g) { "\($0)|\($1.sum())|\($2)|\($3)|\($4)|\($5)|\($6)" }
        }
        #expect(res.events == Self.expected(7, "1|8.0|3|d|5|f|()", "9|8.0|3|d|5|f|()"))
        let tuples = TestScheduler(initialClock: 0)
        let sources = (0 ..< 7).map { Self.source(tuples, $0, $0 * 10, then: $0 == 0 ? -1 : nil) }
        let tupleRes = tuples.start {
            Observable.combineLatest(sources[0], sources[1], sources[2], sources[3], sources[4], sources[5], sources[6])
                .map { "\($0.0)|\($0.1)|\($0.2)|\($0.3)|\($0.4)|\($0.5)|\($0.6)" }
        }
        #expect(tupleRes.events == Self.expected(7, "0|10|20|30|40|50|60", "-1|10|20|30|40|50|60"))
    }

    @Test func eightSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (0 ..< 8).map { Self.source(scheduler, $0, Token("\($0)"), then: $0 == 0 ? Token("Z") : nil) }
        let res = scheduler.start {
            Observable.combineLatest(sources[0], sources[1], sources[2], sources[3], sources[4], sources[5], sources[6], sources[7]) {
                [$0, $1, $2, $3, $4, $5, $6, $7].map(\.name).joined(separator: "|")
            }
        }
        #expect(res.events == Self.expected(8, "0|1|2|3|4|5|6|7", "Z|1|2|3|4|5|6|7"))
        let tuples = TestScheduler(initialClock: 0)
        let a = Self.source(tuples, 0, 1, then: 2)
        let b = Self.source(tuples, 1, "b")
        let c = Self.source(tuples, 2, SIMD4<Double>(0, 0, 0, 1))
        let d = Self.source(tuples, 3, Token("d"))
        let e = Self.source(tuples, 4, UInt8(5))
        let f = Self.source(tuples, 5, ())
        let g = Self.source(tuples, 6, [Token("g")])
        let h = Self.source(tuples, 7, false)
        let tupleRes = tuples.start {
            Observable.combineLatest(a, b, c, d, e, f, g, h)
                .map { "\($0.0)|\($0.1)|\($0.2.sum())|\($0.3)|\($0.4)|\($0.5)|\($0.6)|\($0.7)" }
        }
        #expect(tupleRes.events == Self.expected(8, "1|b|1.0|d|5|()|[g]|false", "2|b|1.0|d|5|()|[g]|false"))
    }

    @Test(arguments: 2 ... 8) func completesEarlyWhenTheLastSourceToSendCanNeverBeCombined(arity: Int) {
        // Every source but the last completes without a value; the last source's element can
        // never be combined, so the sequence completes then and disposes that source.
        let scheduler = TestScheduler(initialClock: 0)
        let empty = (0 ..< arity - 1).map { scheduler.createHotObservable([.completed(210 + 10 * $0)] as [Recorded<Event<Int>>]) }
        let last = scheduler.createHotObservable([.next(300, 1), .next(310, 2), .completed(500)])
        let res = scheduler.start { Self.combined(empty + [last]) }
        #expect(res.events == [.completed(300)])
        #expect(last.subscriptions == [Subscription(200, 300)])
        for (index, source) in empty.enumerated() {
            #expect(source.subscriptions == [Subscription(200, 210 + 10 * index)])
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
            let res = scheduler.start { Self.combined(sources) }
            let sum = (0 ..< arity).reduce(0, +)
            #expect(res.events == [.next(210, sum), .next(250, sum - failing + 100), .error(300, testError)])
            for source in sources {
                #expect(source.subscriptions == [Subscription(200, 300)])
            }
        }
    }

    @Test(arguments: 2 ... 8) func aThrowingSelectorEndsWithItsErrorAndDisposesEverySource(arity: Int) {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (0 ..< arity).map { index in
            scheduler.createHotObservable([.next(210, 1), .next(250 + index, 2), .completed(400)])
        }
        let res = scheduler.start { Self.combined(sources, throwingAbove: arity + 1) }
        #expect(res.events == [.next(210, arity), .next(250, arity + 1), .error(251, TestError.code(arity + 2))])
        for source in sources {
            #expect(source.subscriptions == [Subscription(200, 251)])
        }
    }

    @Test(arguments: 2 ... 8) func disposalReleasesTheSourcesAndTheStoredValues(arity: Int) {
        weak var stored: Token?
        let subjects = (0 ..< arity).map { _ in PublishSubject<Token>() }
        var received: [String] = []
        var subscription: Disposable?
        do {
            let token = Token("t")
            stored = token
            subscription = Self.combinedTokens(subjects).subscribe(onNext: { received.append($0) })
            for subject in subjects { subject.onNext(token) }
        }
        #expect(received == [Array(repeating: "t", count: arity).joined()])
        #expect(stored != nil, "the sink keeps the latest values while subscribed")
        subscription?.dispose()
        #expect(stored == nil, "the latest and the rendered values are released with the sink")
        for subject in subjects {
            subject.onNext(Token("late"))
            #expect(!subject.hasObservers)
        }
        #expect(received.count == 1)
    }

    @Test func aSelectorThatFeedsSourcesQueuesInOrderAtEveryArityItRuns() {
        // While the selector runs, it feeds two sources: those combinations are queued (by
        // value, at the moment they are decided) and delivered after the current one.
        let a = PublishSubject<Int>()
        let b = BehaviorSubject(value: 0)
        let c = BehaviorSubject(value: 0)
        let d = BehaviorSubject(value: "d")
        var received: [String] = []
        let subscription = Observable.combineLatest(a, b, c, d) { x, y, z, w -> String in
            if y == 0 {
                b.onNext(x * 10)
                c.onNext(x * 100)
            }
            return "\(x)|\(y)|\(z)|\(w)"
        }
        .subscribe(onNext: { received.append($0) })
        a.onNext(1)
        a.onNext(2)
        #expect(received == ["1|0|0|d", "1|10|0|d", "1|10|100|d", "2|10|100|d"])
        subscription.dispose()
    }

    @Test func completionDecidedWhileDeliveringFollowsTheQueuedElements() {
        let a = PublishSubject<Int>()
        let b = BehaviorSubject(value: 0)
        var events: [String] = []
        let subscription = Observable.combineLatest(a, b) { x, y -> Int in
            if y == 0 {
                b.onNext(5)
                b.onCompleted()
                a.onCompleted()
            }
            return x + y
        }
        .subscribe(onNext: { events.append("\($0)") }, onCompleted: { events.append("|") })
        a.onNext(1)
        #expect(events == ["1", "6", "|"])
        subscription.dispose()
    }

    @Test func anElementArrivingAfterDisposalDuringDeliveryIsDropped() {
        let a = PublishSubject<Int>()
        let b = BehaviorSubject(value: 0)
        var received: [Int] = []
        var subscription: Disposable?
        subscription = Observable.combineLatest(a, b) { x, y -> Int in
            if x == 1 {
                b.onNext(10)
                subscription?.dispose()
            }
            return x + y
        }
        .subscribe(onNext: { received.append($0) })
        a.onNext(1)
        a.onNext(2)
        #expect(received.isEmpty)
    }

    @Test func justSourcesSendAndCompleteAsIfSubscribed() {
        // A `just` is taken at once instead of subscribed; what comes out must be what its
        // subscription would have made: its element, then its completion, in source order.
        let scheduler = TestScheduler(initialClock: 0)
        let hot = scheduler.createHotObservable([.next(210, 3), .next(220, 4), .completed(300)])
        let res = scheduler.start { Observable.combineLatest(Observable.just(1), Observable.just(2), hot) { $0 * 100 + $1 * 10 + $2 } }
        #expect(res.events == [.next(210, 123), .next(220, 124), .completed(300)])
        #expect(hot.subscriptions == [Subscription(200, 300)])

        let allJust = TestScheduler(initialClock: 0).start {
            Observable.combineLatest(Observable.just("a"), Observable.just(1), Observable.just(true)).map { "\($0.0)\($0.1)\($0.2)" }
        }
        #expect(allJust.events == [.next(200, "a1true"), .completed(200)])

        // An empty source before a just: the just's element can never be combined.
        let emptyFirst = TestScheduler(initialClock: 0).start {
            Observable.combineLatest(Observable<Int>.empty(), Observable.just(1)) { $0 + $1 }
        }
        #expect(emptyFirst.events == [.completed(200)])
        // A just before an empty source: completes once both have.
        let justFirst = TestScheduler(initialClock: 0).start {
            Observable.combineLatest(Observable.just(1), Observable<Int>.empty()) { $0 + $1 }
        }
        #expect(justFirst.events == [.completed(200)])
        // An error before a just: the just changes nothing.
        let failed = TestScheduler(initialClock: 0).start {
            Observable.combineLatest(Observable<Int>.error(testError), Observable.just(1)) { $0 + $1 }
        }
        #expect(failed.events == [.error(200, testError)])
        // A just waits for the others; it alone does not complete the combination.
        let waiting = TestScheduler(initialClock: 0)
        let late = waiting.createHotObservable([.next(250, 5)] as [Recorded<Event<Int>>])
        let waited = waiting.start { Observable.combineLatest(late, Observable.just(1)) { $0 + $1 } }
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
        // Looking for a `just` among the sources must not subscribe anything else, or twice.
        let foreign = Foreign()
        let relay = BehaviorRelay(value: 10)
        var received: [Int] = []
        let subscription = Observable.combineLatest(foreign, relay, Observable.just(100)) { $0 + $1 + $2 }
            .subscribe(onNext: { received.append($0) })
        #expect(foreign.count.subscriptions == 1)
        foreign.subject.onNext(1)
        relay.accept(20)
        #expect(received == [111, 121])
        subscription.dispose()
        #expect(!foreign.subject.hasObservers)
    }

    /// `sources` combined by the fixed-arity front of their count, summing.
    private static func combined(_ sources: [TestableObservable<Int>], throwingAbove limit: Int = .max) -> Observable<Int> {
        func check(_ sum: Int) throws -> Int {
            if sum > limit { throw TestError.code(sum) }
            return sum
        }
        let s = sources
        switch s.count {
        case 2: return Observable.combineLatest(s[0], s[1]) { try check($0 + $1) }
        case 3: return Observable.combineLatest(s[0], s[1], s[2]) { try check($0 + $1 + $2) }
        case 4: return Observable.combineLatest(s[0], s[1], s[2], s[3]) { try check($0 + $1 + $2 + $3) }
        case 5: return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4]) { try check($0 + $1 + $2 + $3 + $4) }
        case 6: return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]) { try check($0 + $1 + $2 + $3 + $4 + $5) }
        case 7:
            return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { try check($0 + $1 + $2 + $3 + $4 + $5 + $6) }
        case 8:
            return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { a, b, c, d, e, f, g, h in
                try check(a + b + c + d + e + f + g + h)
            }
        default: fatalError("arity \(s.count)")
        }
    }

    /// `sources` combined by the tuple front of their count, joining the tokens' names.
    private static func combinedTokens(_ s: [PublishSubject<Token>]) -> Observable<String> {
        switch s.count {
        case 2: return Observable.combineLatest(s[0], s[1]).map { "\($0.0)\($0.1)" }
        case 3: return Observable.combineLatest(s[0], s[1], s[2]).map { "\($0.0)\($0.1)\($0.2)" }
        case 4: return Observable.combineLatest(s[0], s[1], s[2], s[3]).map { "\($0.0)\($0.1)\($0.2)\($0.3)" }
        case 5: return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4]).map { "\($0.0)\($0.1)\($0.2)\($0.3)\($0.4)" }
        case 6:
            return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]).map { "\($0.0)\($0.1)\($0.2)\($0.3)\($0.4)\($0.5)" }
        case 7:
            return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6])
                .map { "\($0.0)\($0.1)\($0.2)\($0.3)\($0.4)\($0.5)\($0.6)" }
        case 8:
            return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7])
                .map { "\($0.0)\($0.1)\($0.2)\($0.3)\($0.4)\($0.5)\($0.6)\($0.7)" }
        default: fatalError("arity \(s.count)")
        }
    }
}
