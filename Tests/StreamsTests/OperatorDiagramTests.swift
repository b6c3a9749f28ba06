import Foundation
import Streams
import StreamsTesting
import TestSupport
import Testing

/// The marble diagrams in the doc comments of `Sources/Streams` are read from the source files
/// (``DocDiagrams``) and run against their operators on a ``TestScheduler``: a diagram that
/// draws something the operator does not do fails here.
@Suite(.resourceCheck) struct OperatorDiagramTests {
    typealias Check = @Sendable (DiagramRun) throws -> [String]

    /// How to run each diagram, by `File.swift: operator line`.
    static let checks: [String: Check] = [
        // The design's chain.
        "Filter.swift: filter { $0.isMultiple(of: 2) }": { try $0.check { try $0.source.filter { $0.isMultiple(of: 2) } } },
        "DistinctUntilChanged.swift: distinctUntilChanged()": { try $0.check { try $0.source.distinctUntilChanged() } },
        "Map.swift: map { $0 * 2 }": { try $0.check { try $0.source.map { $0 * 2 } } },
        // Merging and flattening.
        "Merge.swift: merge(a, b)": { try $0.check { Observable.merge(try $0.input("a"), try $0.input("b")) } },
        "Merge.swift: merge()": { try $0.check { run in try run.outer.map { run.inner($0) }.merge() } },
        "FlatMap.swift: flatMap { $0 }": { try $0.check { run in try run.outer.flatMap { run.inner($0) } } },
        "FlatMapFirst.swift: flatMapFirst { $0 }": { try $0.check { run in try run.outer.flatMapFirst { run.inner($0) } } },
        "FlatMapLatest.swift: flatMapLatest { $0 }": { try $0.check { run in try run.outer.flatMapLatest { run.inner($0) } } },
        "SwitchLatest.swift: switchLatest()": { try $0.check { run in try run.outer.map { run.inner($0) }.switchLatest() } },
        "ConcatMap.swift: concatMap { $0 }": { try $0.check { run in try run.outer.concatMap { run.inner($0) } } },
        "Concat.swift: concat()": { try $0.check { run in try run.outer.map { run.inner($0) }.concat() } },
        "Concat.swift: concat(second)": { try $0.check { try $0.input("self").concat(try $0.input("second")) } },
        "Concat.swift: concat(a, b)": { try $0.check { Observable.concat(try $0.input("a"), try $0.input("b")) } },
        "Concat.swift: concat([a, b])": { try $0.check { Observable.concat([try $0.input("a"), try $0.input("b")]) } },
        "Concat.swift: concat(collection)": { try $0.check { Observable.concat(AnyCollection([try $0.input("a"), try $0.input("b")])) } },
        "Amb.swift: amb(right)": { try $0.check { try $0.input("self").amb(try $0.input("right")) } },
        "Amb.swift: amb([a, b, c])": { try $0.check { Observable.amb([try $0.input("a"), try $0.input("b"), try $0.input("c")]) } },
        "CombineLatest.swift: combineLatest(a, b) { $0 + $1 }": { try $0.check { Observable.combineLatest(try $0.input("a"), try $0.input("b")) { $0 + $1 } } },
        "CombineLatest.swift: combineLatest([a, b]) { $0.reduce(0, +) }": { try $0.check { Observable.combineLatest([try $0.input("a"), try $0.input("b")]) { $0.reduce(0, +) } } },
        "CombineLatest.swift: combineLatest([a, b])": { try $0.check { Observable.combineLatest([try $0.input("a"), try $0.input("b")]) } },
        "CombineLatest.swift: combineLatest(a, b)": { try $0.check { Observable.combineLatest(try $0.input("a"), try $0.input("b")) } },
        "Zip.swift: zip(a, b) { $0 + $1 }": { try $0.check { Observable.zip(try $0.input("a"), try $0.input("b")) { $0 + $1 } } },
        "Zip.swift: zip([a, b]) { $0.reduce(0, +) }": { try $0.check { Observable.zip([try $0.input("a"), try $0.input("b")]) { $0.reduce(0, +) } } },
        "Zip.swift: zip([a, b])": { try $0.check { Observable.zip([try $0.input("a"), try $0.input("b")]) } },
        "Zip.swift: zip(a, b)": { try $0.check { Observable.zip(try $0.input("a"), try $0.input("b")) } },
        "WithLatestFrom.swift: withLatestFrom(second) { $0 + $1 }": { try $0.check { try $0.input("self").withLatestFrom(try $0.input("second")) { $0 + $1 } } },
        "WithLatestFrom.swift: withLatestFrom(second)": { try $0.check { try $0.input("self").withLatestFrom(try $0.input("second")) } },
        "Sample.swift: sample(sampler)": { try $0.check { try $0.input("source").sample(try $0.input("sampler")) } },
        // Sharing: the connection (or a first observer) at frame 0, the observer drawn joins later.
        "Multicast.swift: multicast(subject), connected at frame 0": { try $0.check(subscribedAtResultLine: true) { run in
            connected(try run.input("source").multicast(PublishSubject()), on: run.scheduler)
        } },
        "Multicast.swift: multicast(makeSubject: { PublishSubject() }), connected at frame 0": { try $0.check(subscribedAtResultLine: true) { run in
            connected(try run.input("source").multicast(makeSubject: { PublishSubject() }), on: run.scheduler)
        } },
        "Multicast.swift: multicast({ PublishSubject() }, selector: { shared in shared.map { $0 * 3 } })": { try $0.check { run in
            try run.input("source").multicast({ PublishSubject() }, selector: { shared in shared.map { $0 * 3 } })
        } },
        "Multicast.swift: publish(), connected at frame 0": { try $0.check(subscribedAtResultLine: true) { run in
            connected(try run.input("source").publish(), on: run.scheduler)
        } },
        "Multicast.swift: replay(1), connected at frame 0": { try $0.check(subscribedAtResultLine: true) { run in
            connected(try run.input("source").replay(1), on: run.scheduler)
        } },
        "Multicast.swift: replayAll(), connected at frame 0": { try $0.check(subscribedAtResultLine: true) { run in
            connected(try run.input("source").replayAll(), on: run.scheduler)
        } },
        "Multicast.swift: publish().refCount(), a first observer at frame 0, this one at frame 4": { try $0.check(subscribedAtResultLine: true) { run in
            observedFirst(try run.input("source").publish().refCount(), on: run.scheduler)
        } },
        "Share.swift: share(replay: 1), a first observer at frame 0, this one at frame 4": { try $0.check(subscribedAtResultLine: true) { run in
            observedFirst(try run.input("source").share(replay: 1), on: run.scheduler)
        } },
        // Traits: drivers deliver on the run's scheduler, so they draw as the operators they wrap.
        "SharedSequence+Flatten.swift: flatMapLatest { $0 }": { try $0.check { run in
            try run.outer.asDriver(onErrorJustReturn: "z").flatMapLatest { run.inner($0).asDriver(onErrorJustReturn: 0) }
        } },
        "SharedSequence+Flatten.swift: flatMap { $0 }": { try $0.check { run in
            try run.outer.asDriver(onErrorJustReturn: "z").flatMap { run.inner($0).asDriver(onErrorJustReturn: 0) }
        } },
        "SharedSequence+Flatten.swift: flatMapFirst { $0 }": { try $0.check { run in
            try run.outer.asDriver(onErrorJustReturn: "z").flatMapFirst { run.inner($0).asDriver(onErrorJustReturn: 0) }
        } },
        "SharedSequence+Flatten.swift: withLatestFrom(second) { $0 + $1 }": { try $0.check { run in
            try driver(run.input("self")).withLatestFrom(driver(run.input("second"))) { $0 + $1 }
        } },
        "SharedSequence+Flatten.swift: withLatestFrom(second)": { try $0.check { run in
            try driver(run.input("self")).withLatestFrom(driver(run.input("second")))
        } },
        "SharedSequence+CombineLatestArity.swift: combineLatest(a, b) { $0 + $1 }": { try $0.check { run in
            Driver.combineLatest(try driver(run.input("a")), try driver(run.input("b"))) { $0 + $1 }
        } },
        "SharedSequence+CombineLatestArity.swift: combineLatest(a, b)": { try $0.check { run in
            Driver.combineLatest(try driver(run.input("a")), try driver(run.input("b")))
        } },
        "SharedSequence.swift: merge(a, b)": { try $0.check { run in Driver.merge(try driver(run.input("a")), try driver(run.input("b"))) } },
        "SharedSequence+Operators.swift: startWith(0)": { try $0.check { try driver($0.source).startWith(0) } },
        "SharedSequence+Operators.swift: distinctUntilChanged()": { try $0.check { try driver($0.source).distinctUntilChanged() } },
        "PrimitiveSequence+Time.swift: debounce(.seconds(3))": { try $0.check { try driver($0.source).debounce(.seconds(3)) } },
        "PrimitiveSequence+Time.swift: throttle(.seconds(4))": { try $0.check { try driver($0.source).throttle(.seconds(4)) } },
        "PrimitiveSequence+Time.swift: delay(.seconds(2))": { try $0.check { try driver($0.source).delay(.seconds(2)) } },
        "PrimitiveSequence.swift: catch { _ in .just(9) }": { try $0.check { try $0.source.asSingle().catch { _ in .just(9) } } },
        "PrimitiveSequence.swift: retry(2)": { try $0.check { try $0.source.asSingle().retry(2) } },
        "Single+Operators.swift: catchAndReturn(0)": { try $0.check { try $0.source.asSingle().catchAndReturn(0) } },
        "Maybe+Operators.swift: catchAndReturn(0)": { try $0.check { try $0.source.asMaybe().catchAndReturn(0) } },
        "Completable.swift: andThen(second)": { try $0.check { run in
            try run.input("self").ignoreElements().asCompletable().andThen(try run.input("second").asSingle())
        } },
        "Using.swift: using({ resource }, observableFactory: { _ in source })": { try $0.check { run in
            let source = try run.input("source")
            return Observable.using({ BooleanDisposable() }, observableFactory: { _ in source })
        } },
        "SharedSequence+Flatten.swift: scan(0, accumulator: +)": { try $0.check { try driver($0.source).scan(0, accumulator: +) } },
        "SharedSequence+Operators.swift: map { $0 * 2 }": { try $0.check { try driver($0.source).map { $0 * 2 } } },
        "SharedSequence+Operators.swift: compactMap { $0 == 2 ? nil : $0 }": { try $0.check { try driver($0.source).compactMap { $0 == 2 ? nil : $0 } } },
        "SharedSequence+Operators.swift: filter { $0 != 2 }": { try $0.check { try driver($0.source).filter { $0 != 2 } } },
        "SharedSequence+Operators.swift: distinctUntilChanged(==)": { try $0.check { try driver($0.source).distinctUntilChanged(==) } },
        "Driver.swift: asDriver(onErrorJustReturn: 0)": { try $0.check { try $0.source.asDriver(onErrorJustReturn: 0) } },
        "Driver.swift: asDriver(onErrorDriveWith: .just(9))": { try $0.check { try $0.source.asDriver(onErrorDriveWith: .just(9)) } },
        "Driver.swift: asDriver(onErrorRecover: { _ in .just(9) })": { try $0.check { try $0.source.asDriver(onErrorRecover: { _ in .just(9) }) } },
        "Signal.swift: asSignal(onErrorJustReturn: 0)": { try $0.check { try $0.source.asSignal(onErrorJustReturn: 0) } },
        "Signal.swift: asSignal(onErrorSignalWith: .just(9))": { try $0.check { try $0.source.asSignal(onErrorSignalWith: .just(9)) } },
        "PrimitiveSequence+Time.swift: timeout(.seconds(3), scheduler: scheduler)": { try $0.check(error: RxError.timeout) { run in
            try run.source.asSingle().timeout(.seconds(3), scheduler: run.scheduler)
        } },
        "PrimitiveSequence+Time.swift: timeout(.seconds(3), other: .just(0), scheduler: scheduler)": { try $0.check { run in
            try run.source.asSingle().timeout(.seconds(3), other: .just(0), scheduler: run.scheduler)
        } },
        "PrimitiveSequence+Time.swift: delay(.seconds(2), scheduler: scheduler)": { try $0.check { run in
            try run.source.asSingle().delay(.seconds(2), scheduler: run.scheduler)
        } },
        "PrimitiveSequence+Time.swift: delaySubscription(.seconds(2), scheduler: scheduler)": { try $0.check { run in
            try run.source.asSingle().delaySubscription(.seconds(2), scheduler: run.scheduler)
        } },
        "PrimitiveSequence.swift: observe(on: scheduler)": { try $0.check { run in try run.source.asSingle().observe(on: run.scheduler) } },
        "Single.swift: asCompletable()": { try $0.check { try $0.source.asSingle().asCompletable() } },
        "Single.swift: asSingle()": { try $0.check { try $0.source.asSingle() } },
        "Single.swift: asSingle() (2)": { try $0.check(error: StreamsError.noElements) { try $0.source.asSingle() } },
        "Single.swift: asSingle() (3)": { try $0.check(error: StreamsError.moreThanOneElement) { try $0.source.asSingle() } },
        "Single.swift: asMaybe()": { try $0.check { try $0.source.asMaybe() } },
        "Single.swift: asMaybe() (2)": { try $0.check { try $0.source.asMaybe() } },
        "Single.swift: asMaybe() (3)": { try $0.check(error: StreamsError.moreThanOneElement) { try $0.source.asMaybe() } },
        "Single+Operators.swift: map { $0 * 2 }": { try $0.check { try $0.source.asSingle().map { $0 * 2 } } },
        "Single+Operators.swift: compactMap { $0 > 5 ? $0 : nil }": { try $0.check { try $0.source.asSingle().compactMap { $0 > 5 ? $0 : nil } } },
        "Single+Operators.swift: flatMap { .just($0 + 1) }": { try $0.check { try $0.source.asSingle().flatMap { .just($0 + 1) } } },
        "Single+Operators.swift: flatMapMaybe { _ in .empty() }": { try $0.check { try $0.source.asSingle().flatMapMaybe { _ in Maybe<Int>.empty() } } },
        "Single+Operators.swift: flatMapCompletable { _ in .empty() }": { try $0.check { try $0.source.asSingle().flatMapCompletable { _ in .empty() } } },
        "Single+Operators.swift: filter { $0 > 5 }": { try $0.check { try $0.source.asSingle().filter { $0 > 5 } } },
        "Single+Operators.swift: do(onSuccess: { print($0) })": { try $0.check { try $0.source.asSingle().do(onSuccess: { _ in }) } },
        "Maybe+Operators.swift: map { $0 * 2 }": { try $0.check { try $0.source.asMaybe().map { $0 * 2 } } },
        "Maybe+Operators.swift: flatMap { .just($0 + 1) }": { try $0.check { try $0.source.asMaybe().flatMap { .just($0 + 1) } } },
        "Maybe+Operators.swift: flatMap { .just($0 + 1) } (2)": { try $0.check { try $0.source.asMaybe().flatMap { .just($0 + 1) } } },
        "Maybe+Operators.swift: filter { $0 > 5 }": { try $0.check { try $0.source.asMaybe().filter { $0 > 5 } } },
        "Maybe.swift: ifEmpty(default: 0)": { try $0.check { try $0.source.asMaybe().ifEmpty(default: 0) } },
        "Completable.swift: andThen(second) (2)": { try $0.check { run in
            try run.input("self").ignoreElements().asCompletable().andThen(try run.input("second").asMaybe())
        } },
        "Completable.swift: andThen(second) (3)": { try $0.check { run in
            try run.input("self").ignoreElements().asCompletable().andThen(try run.input("second").ignoreElements().asCompletable())
        } },
        "Completable.swift: andThen(second) (4)": { try $0.check { run in
            try run.input("self").ignoreElements().asCompletable().andThen(try run.input("second"))
        } },
        "Completable.swift: asCompletable()": { try $0.check { try $0.source.ignoreElements().asCompletable() } },
        "PrimitiveSequence+Operators.swift: retry(when: { errors in errors.take(1) })": { try $0.check { run in
            try run.source.asMaybe().retry(when: { (errors: Observable<MarbleEventError>) in errors.take(1) })
        } },
        "PrimitiveSequence+Operators.swift: retry(when: { errors in errors.take(1) }) (2)": { try $0.check { run in
            try run.source.asMaybe().retry(when: { (errors: Observable<Swift.Error>) in errors.take(1) })
        } },
        "PrimitiveSequence+Operators.swift: using({ resource }, primitiveSequenceFactory: { _ in source })": { try $0.check { run in
            let source = try run.input("source").asSingle()
            return Single.using({ BooleanDisposable() }, primitiveSequenceFactory: { _ in source })
        } },
        "PrimitiveSequence+Operators.swift: ifEmpty(switchTo: other)": { try $0.check { run in
            try run.input("source").asMaybe().ifEmpty(switchTo: try run.input("other").asMaybe())
        } },
        "PrimitiveSequence+Operators.swift: concat(second)": { try $0.check { run in
            try run.input("self").asCompletableIgnoringElements().concat(try run.input("second").asCompletableIgnoringElements())
        } },
        "PrimitiveSequence+Operators.swift: concat(a, b)": { try $0.check { run in
            Completable.concat(try run.input("a").asCompletableIgnoringElements(), try run.input("b").asCompletableIgnoringElements())
        } },
        "PrimitiveSequence+Operators.swift: zip(a, b)": { try $0.check { run in
            Completable.zip(try run.input("a").asCompletableIgnoringElements(), try run.input("b").asCompletableIgnoringElements())
        } },
        "PrimitiveSequence+Zip.swift: zip(a, b) { $0 + $1 }": { try $0.check { run in
            Single.zip(try run.input("a").asSingle(), try run.input("b").asSingle()) { $0 + $1 }
        } },
        "PrimitiveSequence+Zip.swift: zip([a, b]) { $0.reduce(0, +) }": { try $0.check { run in
            Single.zip([try run.input("a").asSingle(), try run.input("b").asSingle()]) { $0.reduce(0, +) }
        } },
        "PrimitiveSequence+Zip.swift: zip([a, b])": { try $0.check { run in Single.zip([try run.input("a").asSingle(), try run.input("b").asSingle()]) } },
        "PrimitiveSequence+Zip.swift: zip(a, b)": { try $0.check { run in Single.zip(try run.input("a").asSingle(), try run.input("b").asSingle()) } },
        "PrimitiveSequence+Zip.swift: zip(a, b) { $0 + $1 } (2)": { try $0.check { run in
            Maybe.zip(try run.input("a").asMaybe(), try run.input("b").asMaybe()) { $0 + $1 }
        } },
        "PrimitiveSequence+Zip.swift: zip(a, b) { $0 + $1 } (3)": { try $0.check { run in
            Maybe.zip(try run.input("a").asMaybe(), try run.input("b").asMaybe()) { $0 + $1 }
        } },
        "PrimitiveSequence+Zip.swift: zip(a, b) (2)": { try $0.check { run in Maybe.zip(try run.input("a").asMaybe(), try run.input("b").asMaybe()) } },
        "RxSwift5Spellings.swift: skip(.seconds(7), scheduler: scheduler)": { try $0.check { run in try run.source.skip(.seconds(7), scheduler: run.scheduler) } },
        "Catch.swift: catch(sequence: [a, b, c])": { try $0.check { run in
            Observable.catch(sequence: [try run.input("a"), try run.input("b"), try run.input("c")])
        } },
        "GroupBy.swift: groupBy(keySelector: { $0 % 2 }).flatMap { group in group.map { group.key * 10 + $0 } }": { try $0.check { run in
            try run.source.groupBy(keySelector: { $0 % 2 }).flatMap { group in group.map { group.key * 10 + $0 } }
        } },
        "Decode.swift: decode(type: Pizza.self, decoder: JSONDecoder())": { try $0.check(error: DecodingFailure()) { run in
            try run.strings.map { Data(($0 == "d" ? #"{"name":"Margherita"}"# : "[]").utf8) }
                .decode(type: Pizza.self, decoder: JSONDecoder())
                .map { $0.name == "Margherita" ? "p" : "?" }
                .catch { error in .error(error is DecodingError ? DecodingFailure() : error) }
        } },
        // Infallible: the same diagrams as the observable operators it wraps.
        "Infallible+Combine.swift: combineLatest(a, b) { $0 + $1 }": { try $0.check { run in
            Infallible.combineLatest(try infallible(run.input("a")), try infallible(run.input("b"))) { $0 + $1 }
        } },
        "Infallible+Combine.swift: zip(a, b) { $0 + $1 }": { try $0.check { run in
            Infallible.zip(try infallible(run.input("a")), try infallible(run.input("b"))) { $0 + $1 }
        } },
        "Infallible+Combine.swift: combineLatest([a, b]) { $0.reduce(0, +) }": { try $0.check { run in
            Infallible.combineLatest([try infallible(run.input("a")), try infallible(run.input("b"))]) { $0.reduce(0, +) }
        } },
        "Infallible+Combine.swift: combineLatest([a, b])": { try $0.check { run in
            Infallible.combineLatest([try infallible(run.input("a")), try infallible(run.input("b"))])
        } },
        "Infallible+Combine.swift: zip([a, b]) { $0.reduce(0, +) }": { try $0.check { run in
            Infallible.zip([try infallible(run.input("a")), try infallible(run.input("b"))]) { $0.reduce(0, +) }
        } },
        "Infallible+Combine.swift: zip([a, b])": { try $0.check { run in
            Infallible.zip([try infallible(run.input("a")), try infallible(run.input("b"))])
        } },
        "Infallible+Combine.swift: combineLatest(a, b)": { try $0.check { run in
            Infallible.combineLatest(try infallible(run.input("a")), try infallible(run.input("b")))
        } },
        "Infallible+Combine.swift: zip(a, b)": { try $0.check { run in
            Infallible.zip(try infallible(run.input("a")), try infallible(run.input("b")))
        } },
        "Infallible+Operators.swift: map { $0 * 2 }": { try $0.check { try infallible($0.source).map { $0 * 2 } } },
        "Infallible+Operators.swift: compactMap { Int($0) }": { try $0.check { try $0.strings.asInfallible(onErrorJustReturn: "").compactMap { Int($0) } } },
        "Infallible+Operators.swift: filter { $0.isMultiple(of: 2) }": { try $0.check { try infallible($0.source).filter { $0.isMultiple(of: 2) } } },
        "Infallible+Operators.swift: distinctUntilChanged { $0.lowercased() }": { try $0.check {
            try $0.strings.asInfallible(onErrorJustReturn: "").distinctUntilChanged { $0.lowercased() }
        } },
        "Infallible+Operators.swift: distinctUntilChanged { $0 % 2 == $1 % 2 }": { try $0.check { try infallible($0.source).distinctUntilChanged { $0 % 2 == $1 % 2 } } },
        "Infallible+Operators.swift: distinctUntilChanged({ $0 / 5 }, comparer: ==)": { try $0.check {
            try infallible($0.source).distinctUntilChanged({ $0 / 5 }, comparer: ==)
        } },
        "Infallible+Operators.swift: distinctUntilChanged(at: \\.description)": { try $0.check { try infallible($0.source).distinctUntilChanged(at: \.description) } },
        "Infallible+Operators.swift: distinctUntilChanged()": { try $0.check { try infallible($0.source).distinctUntilChanged() } },
        "Infallible+Operators.swift: debounce(.seconds(3), scheduler: scheduler)": { try $0.check { run in
            try infallible(run.source).debounce(.seconds(3), scheduler: run.scheduler)
        } },
        "Infallible+Operators.swift: throttle(.seconds(4), scheduler: scheduler)": { try $0.check { run in
            try infallible(run.source).throttle(.seconds(4), scheduler: run.scheduler)
        } },
        "Infallible+Flatten.swift: flatMap { $0 }": { try $0.check { run in try run.outer.asInfallible(onErrorJustReturn: "z").flatMap { run.inner($0) } } },
        "Infallible+Flatten.swift: flatMapLatest { $0 }": { try $0.check { run in
            try run.outer.asInfallible(onErrorJustReturn: "z").flatMapLatest { run.inner($0) }
        } },
        "Infallible+Flatten.swift: flatMapFirst { $0 }": { try $0.check { run in
            try run.outer.asInfallible(onErrorJustReturn: "z").flatMapFirst { run.inner($0) }
        } },
        "Infallible+Flatten.swift: concatMap { $0 }": { try $0.check { run in try run.outer.asInfallible(onErrorJustReturn: "z").concatMap { run.inner($0) } } },
        "Infallible+Flatten.swift: concat(second)": { try $0.check { try infallible($0.input("self")).concat(try $0.input("second")) } },
        "Infallible+Flatten.swift: concat([a, b])": { try $0.check { run in
            Infallible.concat(AnySequence([try infallible(run.input("a")), try infallible(run.input("b"))]))
        } },
        "Infallible+Flatten.swift: concat([a, b]) (2)": { try $0.check { run in
            Infallible.concat(AnyCollection([try infallible(run.input("a")), try infallible(run.input("b"))]))
        } },
        "Infallible+Flatten.swift: concat(a, b)": { try $0.check { run in Infallible.concat(try infallible(run.input("a")), try infallible(run.input("b"))) } },
        "Infallible+Flatten.swift: merge([a, b])": { try $0.check { run in
            Infallible.merge(AnyCollection([try infallible(run.input("a")), try infallible(run.input("b"))]))
        } },
        "Infallible+Flatten.swift: merge([a, b]) (2)": { try $0.check { run in
            Infallible.merge([try infallible(run.input("a")), try infallible(run.input("b"))])
        } },
        "Infallible+Flatten.swift: merge(a, b)": { try $0.check { run in Infallible.merge(try infallible(run.input("a")), try infallible(run.input("b"))) } },
        "Infallible+Operators.swift: scan(into: 0) { $0 += $1 }": { try $0.check { try infallible($0.source).scan(into: 0) { $0 += $1 } } },
        "Infallible+Operators.swift: scan(0, accumulator: +)": { try $0.check { try infallible($0.source).scan(0, accumulator: +) } },
        "Infallible+Operators.swift: startWith(0)": { try $0.check { try infallible($0.source).startWith(0) } },
        "Infallible+Operators.swift: take(2)": { try $0.check { try infallible($0.source).take(2) } },
        "Infallible+Operators.swift: take(for: .seconds(7), scheduler: scheduler)": { try $0.check { run in
            try infallible(run.source).take(for: .seconds(7), scheduler: run.scheduler)
        } },
        "Infallible+Operators.swift: take(until: other)": { try $0.check { try infallible($0.input("source")).take(until: try infallible($0.input("other"))) } },
        "Infallible+Operators.swift: take(until: other) (2)": { try $0.check { try infallible($0.input("source")).take(until: try $0.input("other")) } },
        "Infallible+Operators.swift: take(until: { $0 == 3 })": { try $0.check { try infallible($0.source).take(until: { $0 == 3 }) } },
        "Infallible+Operators.swift: take(while: { $0 < 3 })": { try $0.check { try infallible($0.source).take(while: { $0 < 3 }) } },
        "Infallible+Operators.swift: skip(2)": { try $0.check { try infallible($0.source).skip(2) } },
        "Infallible+Operators.swift: skip(while: { $0 < 3 })": { try $0.check { try infallible($0.source).skip(while: { $0 < 3 }) } },
        "Infallible+Operators.swift: skip(until: other)": { try $0.check { try infallible($0.input("source")).skip(until: try $0.input("other")) } },
        "Infallible+Operators.swift: share(replay: 1), a first observer at frame 0, this one at frame 6": { try $0.check(subscribedAtResultLine: true) { run in
            observedFirst(try infallible(run.input("source")).share(replay: 1).asObservable(), on: run.scheduler)
        } },
        "Infallible+Operators.swift: withLatestFrom(second) { $0 + $1 }": { try $0.check { run in
            try infallible(run.input("self")).withLatestFrom(try infallible(run.input("second"))) { $0 + $1 }
        } },
        "Infallible+Operators.swift: withLatestFrom(second)": { try $0.check { run in
            try infallible(run.input("self")).withLatestFrom(try infallible(run.input("second")))
        } },
        "Infallible+Operators.swift: debug(\"n\")": { try $0.check { try infallible($0.source).debug("n") } },
        "Infallible+Operators.swift: do(onNext: { print($0) })": { try $0.check { try infallible($0.source).do(onNext: { _ in }) } },
        "ObservableConvertibleType+Infallible.swift: asInfallible(onErrorJustReturn: 0)": { try $0.check { try $0.source.asInfallible(onErrorJustReturn: 0) } },
        "ObservableConvertibleType+Infallible.swift: asInfallible(onErrorFallbackTo: .of(8, 9))": { try $0.check { try $0.source.asInfallible(onErrorFallbackTo: .of(8, 9)) } },
        "ObservableConvertibleType+Infallible.swift: asInfallible(onErrorRecover: { _ in .just(9) })": { try $0.check {
            try $0.source.asInfallible(onErrorRecover: { _ in .just(9) })
        } },
        "ObservableConvertibleType+Infallible.swift: flatMapLatest { $0 }": { try $0.check { run in
            try run.outer.flatMapLatest { run.inner($0).asInfallible(onErrorJustReturn: 0) }
        } },
        "WithUnretained.swift: withUnretained(owner) { $1 * 2 }": { try $0.check { run in
            try run.source.withUnretained(run.owner(freedAtFrame: 7)) { $1 * 2 }
        } },
        "WithUnretained.swift: withUnretained(owner) { $1 * 2 } (2)": { try $0.check { run in
            try infallible(run.source).withUnretained(run.owner(freedAtFrame: 7)) { $1 * 2 }
        } },
        "WithUnretained.swift: withUnretained(owner), owner freed at frame 7": { try $0.check { run in
            try run.source.withUnretained(run.owner(freedAtFrame: 7)).map { "(\($0.0.name), \($0.1))" }
        } },
        "WithUnretained.swift: withUnretained(owner), owner freed at frame 7 (2)": { try $0.check { run in
            try infallible(run.source).withUnretained(run.owner(freedAtFrame: 7)).map { "(\($0.0.name), \($0.1))" }
        } },
        "SharedSequence+Combining.swift: concat([a, b])": { try $0.check { run in Driver.concat([try driver(run.input("a")), try driver(run.input("b"))]) } },
        "SharedSequence+ZipArity.swift: zip(a, b) { $0 + $1 }": { try $0.check { run in
            Driver.zip(try driver(run.input("a")), try driver(run.input("b"))) { $0 + $1 }
        } },
        "SharedSequence+ZipArity.swift: zip(a, b)": { try $0.check { run in Driver.zip(try driver(run.input("a")), try driver(run.input("b"))) } },
        "SharedSequence+Combining.swift: merge()": { try $0.check { run in
            try run.outer.asDriver(onErrorJustReturn: "z").map { run.inner($0).asDriver(onErrorJustReturn: 0) }.merge()
        } },
        "SharedSequence+Combining.swift: switchLatest()": { try $0.check { run in
            try run.outer.asDriver(onErrorJustReturn: "z").map { run.inner($0).asDriver(onErrorJustReturn: 0) }.switchLatest()
        } },
        "SharedSequence+Combining.swift: skip(2)": { try $0.check { try driver($0.source).skip(2) } },
        "SharedSequence+Combining.swift: distinctUntilChanged({ $0 % 2 }, comparer: ==)": { try $0.check {
            try driver($0.source).distinctUntilChanged({ $0 % 2 }, comparer: ==)
        } },
        "SharedSequence+Combining.swift: withUnretained(owner) { $1 * 2 }": { try $0.check { run in
            try driver(run.source).withUnretained(run.owner(freedAtFrame: 7)) { $1 * 2 }
        } },
        // Errors.
        "Catch.swift: catch { _ in handler }": { try $0.check { run in try run.input("source").catch { _ in try run.input("handler") } } },
        "Catch.swift: catchAndReturn(0)": { try $0.check { try $0.source.catchAndReturn(0) } },
        "Retry.swift: retry(2)": { try $0.check { try $0.source.retry(2) } },
        "RetryWhen.swift: retry(when: { errors in errors.take(2).delay(.seconds(3), scheduler: scheduler) })": { try $0.check { run in
            try run.source.retry(when: { (errors: Observable<MarbleEventError>) in errors.take(2).delay(.seconds(3), scheduler: run.scheduler) })
        } },
        "RetryWhen.swift: retry(when: { errors in errors.take(1) })": { try $0.check { run in
            try run.source.retry(when: { (errors: Observable<Swift.Error>) in errors.take(1) })
        } },
        "First.swift: first() (2)": { try $0.check { try $0.source.first().asObservable().map { $0.map(String.init) ?? "n" } } },
        "Materialize.swift: materialize()": { try $0.check { try $0.source.materialize() } },
        "Materialize.swift: dematerialize()": { try $0.check {
            try $0.strings.map { $0 == "e" ? Event<Int>.error(Marbles.defaultError) : .next(Int($0)!) }.dematerialize()
        } },
        "IfEmpty.swift: defaultIfEmpty(0)": { try $0.check { try $0.source.defaultIfEmpty(0) } },
        "IfEmpty.swift: ifEmpty(default: 0)": { try $0.check { try $0.source.ifEmpty(default: 0) } },
        "IfEmpty.swift: ifEmpty(switchTo: other)": { try $0.check { try $0.input("source").ifEmpty(switchTo: try $0.input("other")) } },
        // Transforming and filtering.
        "CompactMap.swift: compactMap { Int($0) }": { try $0.check { try $0.strings.compactMap { Int($0) } } },
        "FilterNil.swift: filterNil()": { try $0.check { try $0.strings.map { Int($0) }.filterNil() } },
        "FilterNil.swift: unwrap()": { try $0.check { try $0.strings.map { Int($0) }.unwrap() } },
        "Do.swift: do(onNext: { print($0) })": { try $0.check { try $0.source.do(onNext: { _ in }) } },
        "Enumerated.swift: enumerated()": { try $0.check { try $0.source.enumerated() } },
        "Scan.swift: scan(into: 0) { $0 += $1 }": { try $0.check { try $0.source.scan(into: 0) { $0 += $1 } } },
        "Scan.swift: scan(0, accumulator: +)": { try $0.check { try $0.source.scan(0, accumulator: +) } },
        "Reduce.swift: reduce(0, accumulator: +, mapResult: { $0 * 2 })": { try $0.check { try $0.source.reduce(0, accumulator: +, mapResult: { $0 * 2 }) } },
        "Reduce.swift: reduce(0, accumulator: +)": { try $0.check { try $0.source.reduce(0, accumulator: +) } },
        "ToArray.swift: toArray()": { try $0.check { try $0.source.toArray().asObservable() } },
        "First.swift: first()": { try $0.check { try $0.source.first().asObservable().map { $0.map(String.init) ?? "n" } } },
        "ElementAt.swift: element(at: 1)": { try $0.check { try $0.source.element(at: 1) } },
        "SingleElement.swift: single()": { try $0.check { try $0.source.single() } },
        "SingleElement.swift: single { $0 == 2 }": { try $0.check { try $0.source.single { $0 == 2 } } },
        "IgnoreElements.swift: ignoreElements()": { try $0.check { try $0.source.ignoreElements() } },
        "StartWith.swift: startWith(7, 8)": { try $0.check { try $0.source.startWith(7, 8) } },
        "Skip.swift: skip(2)": { try $0.check { try $0.source.skip(2) } },
        "Skip.swift: skip(while: { $0 < 3 })": { try $0.check { try $0.source.skip(while: { $0 < 3 }) } },
        "Skip.swift: skip(until: other)": { try $0.check { try $0.input("source").skip(until: try $0.input("other")) } },
        "Take.swift: take(2)": { try $0.check { try $0.source.take(2) } },
        "Take.swift: takeLast(2)": { try $0.check { try $0.source.takeLast(2) } },
        "Take.swift: take(until: other)": { try $0.check { try $0.input("source").take(until: try $0.input("other")) } },
        "Take.swift: take(until: { $0 == 3 })": { try $0.check { try $0.source.take(until: { $0 == 3 }) } },
        "Take.swift: take(until: { $0 == 3 }, behavior: .inclusive)": { try $0.check { try $0.source.take(until: { $0 == 3 }, behavior: .inclusive) } },
        "Take.swift: take(while: { $0 < 3 })": { try $0.check { try $0.source.take(while: { $0 < 3 }) } },
        "Take.swift: take(while: { $0 < 3 }, behavior: .inclusive)": { try $0.check { try $0.source.take(while: { $0 < 3 }, behavior: .inclusive) } },
        // Time.
        "Debounce.swift: debounce(.seconds(2), scheduler: scheduler)": { try $0.check { run in try run.source.debounce(.seconds(2), scheduler: run.scheduler) } },
        "Throttle.swift: throttle(.seconds(4), scheduler: scheduler)": { try $0.check { run in try run.source.throttle(.seconds(4), scheduler: run.scheduler) } },
        "Throttle.swift: throttle(.seconds(4), latest: false, scheduler: scheduler)": { try $0.check { run in
            try run.source.throttle(.seconds(4), latest: false, scheduler: run.scheduler)
        } },
        "Delay.swift: delay(.seconds(2), scheduler: scheduler)": { try $0.check { run in try run.source.delay(.seconds(2), scheduler: run.scheduler) } },
        "DelaySubscription.swift: delaySubscription(.seconds(3), scheduler: scheduler)": { try $0.check { run in
            try run.source.delaySubscription(.seconds(3), scheduler: run.scheduler)
        } },
        "SkipFor.swift: skip(for: .seconds(7), scheduler: scheduler)": { try $0.check { run in try run.source.skip(for: .seconds(7), scheduler: run.scheduler) } },
        "TakeFor.swift: take(for: .seconds(7), scheduler: scheduler)": { try $0.check { run in try run.source.take(for: .seconds(7), scheduler: run.scheduler) } },
        "Timeout.swift: timeout(.seconds(4), scheduler: scheduler)": { try $0.check(error: RxError.timeout) { run in
            try run.source.timeout(.seconds(4), scheduler: run.scheduler)
        } },
        "Timeout.swift: timeout(.seconds(4), other: fallback, scheduler: scheduler)": { try $0.check { run in
            try run.input("source").timeout(.seconds(4), other: try run.input("fallback"), scheduler: run.scheduler)
        } },
        "Buffer.swift: buffer(timeSpan: .seconds(7), count: 3, scheduler: scheduler)": { try $0.check { run in
            try run.source.buffer(timeSpan: .seconds(7), count: 3, scheduler: run.scheduler)
        } },
        "Window.swift: window(timeSpan: .seconds(7), count: 3, scheduler: scheduler).concatMap { $0.toArray() }": { try $0.check { run in
            try run.source.window(timeSpan: .seconds(7), count: 3, scheduler: run.scheduler).concatMap { $0.toArray() }
        } },
    ]

    /// `observable` as a driver that passes errors on as 0.
    static func driver(_ observable: Observable<Int>) -> Driver<Int> { observable.asDriver(onErrorJustReturn: 0) }

    /// `observable` as an infallible that turns an error into 0.
    static func infallible(_ observable: Observable<Int>) -> Infallible<Int> { observable.asInfallible(onErrorJustReturn: 0) }

    /// `connectable`, connected at frame 0 (200) and never disconnected.
    static func connected<Element>(_ connectable: ConnectableObservable<Element>, on scheduler: TestScheduler) -> Observable<Element> {
        scheduler.scheduleAt(TestScheduler.Defaults.subscribed) { _ = connectable.connect() }
        return connectable.asObservable()
    }

    /// `shared`, with a first observer from frame 0 (200) to the end of the run.
    static func observedFirst<Element>(_ shared: Observable<Element>, on scheduler: TestScheduler) -> Observable<Element> {
        let first = scheduler.createObserver(Element.self)
        scheduler.scheduleAt(TestScheduler.Defaults.subscribed) { _ = shared.subscribe(first) }
        return shared
    }

    static let found = Result { try DocDiagrams.all() }

    @Test func everyDiagramInTheSourcesIsWellFormed() throws {
        let (_, problems) = try Self.found.get()
        #expect(problems == [])
    }

    @Test func everyDiagramIsRunAndEveryCheckHasItsDiagram() throws {
        let keys = Set(try Self.found.get().diagrams.map(\.key))
        #expect(Set(Self.checks.keys).subtracting(keys).sorted() == [], "checks whose diagram is gone")
        #expect(keys.subtracting(Self.checks.keys).sorted() == [], "diagrams that no check runs")
    }

    @Test(arguments: checks.keys.sorted())
    func theDiagramDrawsWhatTheOperatorDoes(_ key: String) throws {
        let diagrams = try Self.found.get().diagrams.filter { $0.key == key }
        try #require(diagrams.count == 1, "\(key): \(diagrams.count) diagrams")
        let differences = try Self.checks[key]!(DiagramRun(diagrams[0]))
        #expect(differences == [], "\(diagrams[0])")
    }
}

extension ObservableType {
    /// The completable of this sequence's end.
    func asCompletableIgnoringElements() -> Completable { ignoreElements().asCompletable() }
}

/// The pizza of the `decode` diagram.
private struct Pizza: Decodable { var name: String }

/// Any `DecodingError`, for the `decode` diagram's `#` (their descriptions carry a coding path).
private struct DecodingFailure: Error, Equatable {}
