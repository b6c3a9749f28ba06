// `zip` of two to eight shared sequences, in RxCocoa's shape: each argument is any
// `SharedSequenceConvertibleType` of the same sharing strategy, not only a `SharedSequence`
// (a parameter pack cannot state that every source has the same strategy, so each arity is
// written out, as RxCocoa does). Written by Scripts/generate-arities.py: edit that, not this.

extension SharedSequence {
    /// Combines the elements of the sources pairwise, in order, with `resultSelector`: the n-th
    /// result uses the n-th element of each source. The sources are any shared sequences (or types
    /// of yours convertible to one) of this sharing strategy.
    ///
    ///     a: --1-----2-----3--|
    ///     b: ----3-4-----------5--|
    ///     zip(a, b) { $0 + $1 }
    ///        ----4---6---------8--|
    ///
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    ///   - resultSelector: Makes an element from one element of each source; a thrown error
    ///     ends the sequence with that error, as in RxCocoa (a shared sequence must not fail:
    ///     throw only for a programming error).
    /// - Returns: The shared sequence of results.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType>(
        _ source1: O1,
        _ source2: O2,
        resultSelector: @escaping (O1.Element, O2.Element) throws -> Element
    ) -> SharedSequence<SharingStrategy, Element>
    where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.zip(
            source1.asObservable(), source2.asObservable(),
            resultSelector: resultSelector
        ))
    }

    /// Combines the elements of the sources pairwise, in order, with `resultSelector`: the n-th
    /// result uses the n-th element of each source. The sources are any shared sequences (or types
    /// of yours convertible to one) of this sharing strategy.
    ///
    ///     zip(a, b, c):  --(first of each)--(second of each)--|   completes when one source is out
    ///
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    ///   - source3: The third source.
    ///   - resultSelector: Makes an element from one element of each source; a thrown error
    ///     ends the sequence with that error, as in RxCocoa (a shared sequence must not fail:
    ///     throw only for a programming error).
    /// - Returns: The shared sequence of results.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element) throws -> Element
    ) -> SharedSequence<SharingStrategy, Element>
    where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.zip(
            source1.asObservable(), source2.asObservable(), source3.asObservable(),
            resultSelector: resultSelector
        ))
    }

    /// Combines the elements of the sources pairwise, in order, with `resultSelector`: the n-th
    /// result uses the n-th element of each source. The sources are any shared sequences (or types
    /// of yours convertible to one) of this sharing strategy.
    ///
    ///     zip(a, b, c, d):  --(first of each)--(second of each)--|   completes when one source is out
    ///
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    ///   - source3: The third source.
    ///   - source4: The fourth source.
    ///   - resultSelector: Makes an element from one element of each source; a thrown error
    ///     ends the sequence with that error, as in RxCocoa (a shared sequence must not fail:
    ///     throw only for a programming error).
    /// - Returns: The shared sequence of results.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element
    ) -> SharedSequence<SharingStrategy, Element>
    where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.zip(
            source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
            resultSelector: resultSelector
        ))
    }

    /// Combines the elements of the sources pairwise, in order, with `resultSelector`: the n-th
    /// result uses the n-th element of each source. The sources are any shared sequences (or types
    /// of yours convertible to one) of this sharing strategy.
    ///
    ///     zip(a, b, c, d, e):  --(first of each)--(second of each)--|   completes when one source is out
    ///
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    ///   - source3: The third source.
    ///   - source4: The fourth source.
    ///   - source5: The fifth source.
    ///   - resultSelector: Makes an element from one element of each source; a thrown error
    ///     ends the sequence with that error, as in RxCocoa (a shared sequence must not fail:
    ///     throw only for a programming error).
    /// - Returns: The shared sequence of results.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element) throws -> Element
    ) -> SharedSequence<SharingStrategy, Element>
    where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.zip(
            source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(),
            resultSelector: resultSelector
        ))
    }

    /// Combines the elements of the sources pairwise, in order, with `resultSelector`: the n-th
    /// result uses the n-th element of each source. The sources are any shared sequences (or types
    /// of yours convertible to one) of this sharing strategy.
    ///
    ///     zip(a, b, c, d, e, f):  --(first of each)--(second of each)--|   completes when one source is out
    ///
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    ///   - source3: The third source.
    ///   - source4: The fourth source.
    ///   - source5: The fifth source.
    ///   - source6: The sixth source.
    ///   - resultSelector: Makes an element from one element of each source; a thrown error
    ///     ends the sequence with that error, as in RxCocoa (a shared sequence must not fail:
    ///     throw only for a programming error).
    /// - Returns: The shared sequence of results.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5,
        _ source6: O6,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element) throws -> Element
    ) -> SharedSequence<SharingStrategy, Element>
    where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.zip(
            source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(),
            resultSelector: resultSelector
        ))
    }

    /// Combines the elements of the sources pairwise, in order, with `resultSelector`: the n-th
    /// result uses the n-th element of each source. The sources are any shared sequences (or types
    /// of yours convertible to one) of this sharing strategy.
    ///
    ///     zip(a, b, c, d, e, f, g):  --(first of each)--(second of each)--|   completes when one source is out
    ///
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    ///   - source3: The third source.
    ///   - source4: The fourth source.
    ///   - source5: The fifth source.
    ///   - source6: The sixth source.
    ///   - source7: The seventh source.
    ///   - resultSelector: Makes an element from one element of each source; a thrown error
    ///     ends the sequence with that error, as in RxCocoa (a shared sequence must not fail:
    ///     throw only for a programming error).
    /// - Returns: The shared sequence of results.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType, O7: SharedSequenceConvertibleType>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5,
        _ source6: O6,
        _ source7: O7,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element) throws -> Element
    ) -> SharedSequence<SharingStrategy, Element>
    where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy, O7.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.zip(
            source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable(),
            resultSelector: resultSelector
        ))
    }

    /// Combines the elements of the sources pairwise, in order, with `resultSelector`: the n-th
    /// result uses the n-th element of each source. The sources are any shared sequences (or types
    /// of yours convertible to one) of this sharing strategy.
    ///
    ///     zip(a, b, c, d, e, f, g, h):  --(first of each)--(second of each)--|   completes when one source is out
    ///
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    ///   - source3: The third source.
    ///   - source4: The fourth source.
    ///   - source5: The fifth source.
    ///   - source6: The sixth source.
    ///   - source7: The seventh source.
    ///   - source8: The eighth source.
    ///   - resultSelector: Makes an element from one element of each source; a thrown error
    ///     ends the sequence with that error, as in RxCocoa (a shared sequence must not fail:
    ///     throw only for a programming error).
    /// - Returns: The shared sequence of results.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType, O7: SharedSequenceConvertibleType, O8: SharedSequenceConvertibleType>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5,
        _ source6: O6,
        _ source7: O7,
        _ source8: O8,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element) throws -> Element
    ) -> SharedSequence<SharingStrategy, Element>
    where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy, O7.SharingStrategy == SharingStrategy, O8.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.zip(
            source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable(), source8.asObservable(),
            resultSelector: resultSelector
        ))
    }
}

extension SharedSequence where Element == Any {
    /// Combines the elements of the sources pairwise, in order, into tuples: the n-th tuple holds
    /// the n-th element of each source. The sources are any shared sequences (or types of yours
    /// convertible to one) of this sharing strategy.
    ///
    ///     a: --1-----2-----3--|
    ///     b: ----3-4-----------5--|
    ///     zip(a, b)
    ///        ----A---B---------C--|
    ///     where A = (1, 3), B = (2, 4), C = (3, 5)
    ///
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    /// - Returns: The shared sequence of tuples.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType>(
        _ source1: O1,
        _ source2: O2
    ) -> SharedSequence<SharingStrategy, (O1.Element, O2.Element)>
    where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy {
        SharedSequence<SharingStrategy, (O1.Element, O2.Element)>(Observable.zip(
            source1.asObservable(), source2.asObservable()
        ))
    }

    /// Combines the elements of the sources pairwise, in order, into tuples: the n-th tuple holds
    /// the n-th element of each source. The sources are any shared sequences (or types of yours
    /// convertible to one) of this sharing strategy.
    ///
    ///     zip(a, b, c):  --(first of each)--(second of each)--|   completes when one source is out
    ///
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    ///   - source3: The third source.
    /// - Returns: The shared sequence of tuples.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3
    ) -> SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element)>
    where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy {
        SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element)>(Observable.zip(
            source1.asObservable(), source2.asObservable(), source3.asObservable()
        ))
    }

    /// Combines the elements of the sources pairwise, in order, into tuples: the n-th tuple holds
    /// the n-th element of each source. The sources are any shared sequences (or types of yours
    /// convertible to one) of this sharing strategy.
    ///
    ///     zip(a, b, c, d):  --(first of each)--(second of each)--|   completes when one source is out
    ///
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    ///   - source3: The third source.
    ///   - source4: The fourth source.
    /// - Returns: The shared sequence of tuples.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4
    ) -> SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element)>
    where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy {
        SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element)>(Observable.zip(
            source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable()
        ))
    }

    /// Combines the elements of the sources pairwise, in order, into tuples: the n-th tuple holds
    /// the n-th element of each source. The sources are any shared sequences (or types of yours
    /// convertible to one) of this sharing strategy.
    ///
    ///     zip(a, b, c, d, e):  --(first of each)--(second of each)--|   completes when one source is out
    ///
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    ///   - source3: The third source.
    ///   - source4: The fourth source.
    ///   - source5: The fifth source.
    /// - Returns: The shared sequence of tuples.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5
    ) -> SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)>
    where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy {
        SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)>(Observable.zip(
            source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable()
        ))
    }

    /// Combines the elements of the sources pairwise, in order, into tuples: the n-th tuple holds
    /// the n-th element of each source. The sources are any shared sequences (or types of yours
    /// convertible to one) of this sharing strategy.
    ///
    ///     zip(a, b, c, d, e, f):  --(first of each)--(second of each)--|   completes when one source is out
    ///
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    ///   - source3: The third source.
    ///   - source4: The fourth source.
    ///   - source5: The fifth source.
    ///   - source6: The sixth source.
    /// - Returns: The shared sequence of tuples.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5,
        _ source6: O6
    ) -> SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)>
    where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy {
        SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)>(Observable.zip(
            source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable()
        ))
    }

    /// Combines the elements of the sources pairwise, in order, into tuples: the n-th tuple holds
    /// the n-th element of each source. The sources are any shared sequences (or types of yours
    /// convertible to one) of this sharing strategy.
    ///
    ///     zip(a, b, c, d, e, f, g):  --(first of each)--(second of each)--|   completes when one source is out
    ///
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    ///   - source3: The third source.
    ///   - source4: The fourth source.
    ///   - source5: The fifth source.
    ///   - source6: The sixth source.
    ///   - source7: The seventh source.
    /// - Returns: The shared sequence of tuples.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType, O7: SharedSequenceConvertibleType>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5,
        _ source6: O6,
        _ source7: O7
    ) -> SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)>
    where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy, O7.SharingStrategy == SharingStrategy {
        SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)>(Observable.zip(
            source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable()
        ))
    }

    /// Combines the elements of the sources pairwise, in order, into tuples: the n-th tuple holds
    /// the n-th element of each source. The sources are any shared sequences (or types of yours
    /// convertible to one) of this sharing strategy.
    ///
    ///     zip(a, b, c, d, e, f, g, h):  --(first of each)--(second of each)--|   completes when one source is out
    ///
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    ///   - source3: The third source.
    ///   - source4: The fourth source.
    ///   - source5: The fifth source.
    ///   - source6: The sixth source.
    ///   - source7: The seventh source.
    ///   - source8: The eighth source.
    /// - Returns: The shared sequence of tuples.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType, O7: SharedSequenceConvertibleType, O8: SharedSequenceConvertibleType>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5,
        _ source6: O6,
        _ source7: O7,
        _ source8: O8
    ) -> SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element)>
    where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy, O7.SharingStrategy == SharingStrategy, O8.SharingStrategy == SharingStrategy {
        SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element)>(Observable.zip(
            source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable(), source8.asObservable()
        ))
    }
}
