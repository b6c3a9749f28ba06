import Foundation

/// An amount of money: an integer count of the currency's minor units (cents) and the
/// currency. Nothing goes through `Double`.
///
///     let price = Money(minorUnits: 1299, currency: .usd)
///     price.format()                          // $12.99
public struct Money: Hashable, Sendable {
    /// The amount in minor units (cents for USD).
    public let minorUnits: Int64
    /// The currency.
    public let currency: Currency

    /// Creates an amount.
    ///
    /// - Parameters:
    ///   - minorUnits: The amount in minor units.
    ///   - currency: The currency.
    public init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// The amount as the app shows it, in English (United States): the symbol first, `,`
    /// between groups of three digits, `.` before the minor digits, and the minus sign before
    /// everything: `$1,234.56`, `-$0.05`. The rules are written here, so the text is the same
    /// on every platform (unlike `NumberFormatter`).
    ///
    /// - Returns: The text.
    public func format() -> String {
        let magnitude = minorUnits.magnitude
        var divisor: UInt64 = 1
        for _ in 0..<currency.minorUnitDigits { divisor *= 10 }
        let digits = String(magnitude / divisor)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        var number = grouped
        if currency.minorUnitDigits > 0 {
            let fraction = String(magnitude % divisor)
            number += "." + String(repeating: "0", count: currency.minorUnitDigits - fraction.count) + fraction
        }
        return (minorUnits < 0 ? "-" : "") + currency.symbol + number
    }
}

/// A currency: an ISO 4217 code, its minor-unit digits and its symbol.
public struct Currency: Hashable, Sendable {
    /// The ISO 4217 code, e.g. `USD`.
    public let code: String
    /// Digits after the decimal separator: 2 for USD, 0 for JPY, 3 for KWD.
    public let minorUnitDigits: Int
    /// The symbol, e.g. `$`.
    public let symbol: String

    /// Creates a currency.
    ///
    /// - Parameters:
    ///   - code: The ISO 4217 code.
    ///   - minorUnitDigits: Digits after the decimal separator, 0 to 4.
    ///   - symbol: The symbol.
    public init(code: String, minorUnitDigits: Int, symbol: String) {
        precondition((0...4).contains(minorUnitDigits), "Unsupported minor unit digits \(minorUnitDigits)")
        self.code = code
        self.minorUnitDigits = minorUnitDigits
        self.symbol = symbol
    }

    /// US dollar, the app's currency.
    public static let usd = Currency(code: "USD", minorUnitDigits: 2, symbol: "$")
}
