import Foundation

/// `@sum`, `@avg`, `@min`, `@max` over values (nulls ignored).
func aggregate(_ op: AggregateOperator, _ values: [StoreValue]) -> StoreValue {
    let present = values.filter { !$0.isNull }
    switch op {
    case .count, .size: return .int(Int64(present.count))
    case .sum:
        if present.allSatisfy({ if case .int = $0 { return true } else { return false } }) {
            var total: Int64 = 0
            for case .int(let v) in present { total &+= v }
            return .int(total)
        }
        if present.allSatisfy({ if case .decimal = $0 { return true } else { return false } }) {
            var total = Decimal(0)
            for case .decimal(let v) in present { total += v }
            return .decimal(total)
        }
        return .double(present.compactMap(\.numeric).reduce(0, +))
    case .avg:
        guard !present.isEmpty else { return .null }
        if present.allSatisfy({ if case .decimal = $0 { return true } else { return false } }) {
            var total = Decimal(0)
            for case .decimal(let v) in present { total += v }
            return .decimal(total / Decimal(present.count))
        }
        let numbers = present.compactMap(\.numeric)
        guard !numbers.isEmpty else { return .null }
        return .double(numbers.reduce(0, +) / Double(numbers.count))
    case .min:
        return present.min { (compareValues($0, $1) ?? 0) < 0 } ?? .null
    case .max:
        return present.max { (compareValues($0, $1) ?? 0) < 0 } ?? .null
    }
}
