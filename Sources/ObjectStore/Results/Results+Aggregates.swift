import Foundation

/// Aggregates over the results, as Realm's `sum`, `average`, `min` and `max`.
extension Results {
    /// The sum of a numeric property over the results (0 when empty).
    ///
    /// - Parameter property: The property name.
    /// - Returns: The sum.
    public func sum<T: AddableType>(ofProperty property: String) -> T {
        T(storeValue: aggregateValue(.sum, property)) ?? T(storeValue: .int(0))!
    }

    /// The average of a numeric property, or `nil` when the results are empty.
    ///
    /// - Parameter property: The property name.
    /// - Returns: The average.
    public func average<T: AddableType>(ofProperty property: String) -> T? {
        T(storeValue: aggregateValue(.avg, property))
    }

    /// The smallest value of a property, or `nil` when the results are empty.
    ///
    /// - Parameter property: The property name.
    /// - Returns: The minimum.
    public func min<T: MinMaxType>(ofProperty property: String) -> T? {
        T(storeValue: aggregateValue(.min, property))
    }

    /// The largest value of a property, or `nil` when the results are empty.
    ///
    /// - Parameter property: The property name.
    /// - Returns: The maximum.
    public func max<T: MinMaxType>(ofProperty property: String) -> T? {
        T(storeValue: aggregateValue(.max, property))
    }

    private func aggregateValue(_ op: AggregateOperator, _ property: String) -> StoreValue {
        let path: ResolvedPath
        do { path = try QueryCompiler(schema: schema).resolve(property.split(separator: ".").map(String.init), column: 0) } catch {
            preconditionFailure("\(error)")
        }
        let state = evaluate()
        guard let table = state.snapshot.table(schema) else { return aggregate(op, []) }
        var values: [StoreValue] = []
        values.reserveCapacity(state.slots.count)
        for row in table.rows(at: state.slots) { path.gather(row, state.snapshot, into: &values) }
        return aggregate(op, values)
    }
}

/// Values `sum` and `average` can produce: `Int`, `Double`, `Float`, `Decimal`.
public protocol AddableType {
    /// Reads the value from a stored value.
    init?(storeValue: StoreValue)
}

/// Values `min` and `max` can produce: the numbers, `Date` and `String`.
public protocol MinMaxType {
    /// Reads the value from a stored value.
    init?(storeValue: StoreValue)
}

extension Int: AddableType, MinMaxType {
    /// Reads the value from a stored value.
    public init?(storeValue: StoreValue) {
        guard let v = scalarFromStore(storeValue, as: Int.self) else { return nil }
        self = v
    }
}
extension Double: AddableType, MinMaxType {
    /// Reads the value from a stored value.
    public init?(storeValue: StoreValue) {
        guard let v = scalarFromStore(storeValue, as: Double.self) else { return nil }
        self = v
    }
}
extension Float: AddableType, MinMaxType {
    /// Reads the value from a stored value.
    public init?(storeValue: StoreValue) {
        guard let v = scalarFromStore(storeValue, as: Float.self) else { return nil }
        self = v
    }
}
extension Decimal: AddableType, MinMaxType {
    /// Reads the value from a stored value.
    public init?(storeValue: StoreValue) {
        guard let v = scalarFromStore(storeValue, as: Decimal.self) else { return nil }
        self = v
    }
}
extension Date: MinMaxType {
    /// Reads the value from a stored value.
    public init?(storeValue: StoreValue) {
        guard case .date(let d) = storeValue else { return nil }
        self = d
    }
}
extension String: MinMaxType {
    /// Reads the value from a stored value.
    public init?(storeValue: StoreValue) {
        guard case .string(let s) = storeValue else { return nil }
        self = s
    }
}
