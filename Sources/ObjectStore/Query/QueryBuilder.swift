import Foundation

/// The typed, key-path based way to write a query; it compiles to the same predicate tree as
/// the query language.
///
///     store.objects(Pizza.self).where {
///         $0.price < 1000 && $0.name.contains("pep", caseInsensitive: true)
///     }
///     // same as .filter("price < 1000 AND name CONTAINS[c] 'pep'")
///
/// Through a to-many link or a list the comparison means "any element" (`$0.categories.name ==
/// "Classic"`); `.count` is `@count`.
@dynamicMemberLookup
public struct StoreQuery<Root> {
    /// The query of `Root`'s properties (for other modules' `where`, such as `ViewModelQuery`'s).
    package init() {}

    /// A property of the model.
    public subscript<V>(dynamicMember keyPath: KeyPath<Root, V>) -> QueryProperty<V> {
        QueryProperty(path: nameOf(keyPath))
    }
}

/// A key path inside a ``StoreQuery``: compare it with values to build a ``StorePredicate``.
@dynamicMemberLookup
public struct QueryProperty<Value> {
    let path: [String]

    /// A property of an embedded value or a to-one link.
    public subscript<U>(dynamicMember keyPath: KeyPath<Value, U>) -> QueryProperty<U> {
        QueryProperty<U>(path: path + nameOf(keyPath))
    }

    /// A property of an optional embedded value or to-one link.
    public subscript<W, U>(dynamicMember keyPath: KeyPath<W, U>) -> QueryProperty<U> where Value == W? {
        QueryProperty<U>(path: path + nameOf(keyPath))
    }

    /// A property of the elements of a to-many link or list (compared with "any element").
    public subscript<E, U>(dynamicMember keyPath: KeyPath<E, U>) -> QueryProperty<U> where Value == [E] {
        QueryProperty<U>(path: path + nameOf(keyPath))
    }

    var expression: QueryExpression { .keyPath(path, column: 0) }

    func compare(_ op: ComparisonOperator, _ value: Any?, _ options: StringOptions = [], _ q: Quantifier = .none) -> StorePredicate {
        guard let stored = StoreValue.from(any: value) else { preconditionFailure("\(String(describing: value)) cannot be used in a query") }
        return StorePredicate(node: .comparison(expression, op, .value(stored), options, q))
    }

    /// Matches when the value is one of `values` (`IN {…}`).
    ///
    /// - Parameter values: The candidates.
    /// - Returns: The predicate.
    public func `in`<S: Sequence>(_ values: S) -> StorePredicate { compare(.in, Array(values).map { $0 as Any }) }

    /// Matches when `lower <= value <= upper` (`BETWEEN {lower, upper}`).
    ///
    /// - Parameters:
    ///   - lower: The lower bound.
    ///   - upper: The upper bound.
    /// - Returns: The predicate.
    public func between(_ lower: Value, _ upper: Value) -> StorePredicate {
        guard let l = StoreValue.from(any: lower), let u = StoreValue.from(any: upper) else { preconditionFailure("bounds cannot be stored") }
        return StorePredicate(node: .between(expression, .value(l), .value(u), .none))
    }
}

extension QueryProperty where Value: Collection {
    /// The number of elements (`@count`).
    public var count: QueryProperty<Int> { QueryProperty<Int>(path: path + ["@count"]) }
}

extension QueryProperty {
    var aggregate: QueryExpression {
        if let i = path.firstIndex(of: "@count") { return .aggregate(Array(path[..<i]), .count, [], column: 0) }
        return expression
    }
}

// MARK: Comparisons

/// Equal (`==`).
public func == <V>(lhs: QueryProperty<V>, rhs: V) -> StorePredicate { lhs.compareAggregate(.equal, rhs) }
/// Not equal (`!=`).
public func != <V>(lhs: QueryProperty<V>, rhs: V) -> StorePredicate { lhs.compareAggregate(.notEqual, rhs) }
/// Less than (`<`).
public func < <V: Comparable>(lhs: QueryProperty<V>, rhs: V) -> StorePredicate { lhs.compareAggregate(.less, rhs) }
/// Less than or equal (`<=`).
public func <= <V: Comparable>(lhs: QueryProperty<V>, rhs: V) -> StorePredicate { lhs.compareAggregate(.lessOrEqual, rhs) }
/// Greater than (`>`).
public func > <V: Comparable>(lhs: QueryProperty<V>, rhs: V) -> StorePredicate { lhs.compareAggregate(.greater, rhs) }
/// Greater than or equal (`>=`).
public func >= <V: Comparable>(lhs: QueryProperty<V>, rhs: V) -> StorePredicate { lhs.compareAggregate(.greaterOrEqual, rhs) }
/// Less than, for optional properties.
public func < <V: Comparable>(lhs: QueryProperty<V?>, rhs: V) -> StorePredicate { lhs.compareAggregate(.less, rhs) }
/// Greater than, for optional properties.
public func > <V: Comparable>(lhs: QueryProperty<V?>, rhs: V) -> StorePredicate { lhs.compareAggregate(.greater, rhs) }

extension QueryProperty {
    func compareAggregate(_ op: ComparisonOperator, _ value: Any?) -> StorePredicate {
        guard let stored = StoreValue.from(any: value) else { preconditionFailure("\(String(describing: value)) cannot be used in a query") }
        return StorePredicate(node: .comparison(aggregate, op, .value(stored), [], .none))
    }
}

// MARK: Strings

extension QueryProperty where Value == String {
    /// `CONTAINS` (with `[c]`/`[d]` from the flags).
    ///
    /// - Parameters:
    ///   - text: The substring.
    ///   - caseInsensitive: `[c]`.
    ///   - diacriticInsensitive: `[d]`.
    /// - Returns: The predicate.
    public func contains(_ text: String, caseInsensitive: Bool = false, diacriticInsensitive: Bool = false) -> StorePredicate {
        compare(.contains, text, options(caseInsensitive, diacriticInsensitive))
    }

    /// `BEGINSWITH`.
    public func starts(with text: String, caseInsensitive: Bool = false, diacriticInsensitive: Bool = false) -> StorePredicate {
        compare(.beginsWith, text, options(caseInsensitive, diacriticInsensitive))
    }

    /// `ENDSWITH`.
    public func ends(with text: String, caseInsensitive: Bool = false, diacriticInsensitive: Bool = false) -> StorePredicate {
        compare(.endsWith, text, options(caseInsensitive, diacriticInsensitive))
    }

    /// `LIKE` with `*` and `?` wildcards.
    public func like(_ pattern: String, caseInsensitive: Bool = false) -> StorePredicate {
        compare(.like, pattern, options(caseInsensitive, false))
    }

    /// `==[c]` / `==[d]`.
    public func equals(_ text: String, caseInsensitive: Bool = false, diacriticInsensitive: Bool = false) -> StorePredicate {
        compare(.equal, text, options(caseInsensitive, diacriticInsensitive))
    }

    private func options(_ c: Bool, _ d: Bool) -> StringOptions {
        var o = StringOptions()
        if c { o.insert(.caseInsensitive) }
        if d { o.insert(.diacriticInsensitive) }
        return o
    }
}

extension Results {
    /// The objects that also match a typed query.
    ///
    ///     pizzas.where { $0.price < 1000 && $0.categories.name == "Classic" }
    ///
    /// - Parameter build: Builds the predicate from the model's key paths.
    /// - Returns: The narrowed results.
    public func `where`(_ build: (StoreQuery<Element>) -> StorePredicate) -> Results<Element> {
        filter(build(StoreQuery()))
    }
}

/// The property names of a key path (`\Pizza.chef.name` → `["chef", "name"]`).
func nameOf(_ keyPath: AnyKeyPath) -> [String] {
    guard let name = keyPathName(keyPath) else { preconditionFailure("cannot name key path \(keyPath)") }
    return name.split(separator: ".").map(String.init)
}
