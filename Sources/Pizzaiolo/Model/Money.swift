import Foundation

/// An amount of money: an integer count of the currency's minor units (cents) and the
/// currency. Arithmetic is integer arithmetic; nothing goes through `Double`.
///
///     let price = Money(minorUnits: 1299, currency: .usd)
///     price.format()                          // $12.99
///     price.format(locale: .deDE)             // 12,99 $
///     (price * 3).format()                    // $38.97
public struct Money: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The amount in minor units (cents for USD, yen for JPY).
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

    /// Creates an amount from a currency code (`"USD"`).
    ///
    /// - Parameters:
    ///   - minorUnits: The amount in minor units.
    ///   - currencyCode: An ISO 4217 code.
    public init(minorUnits: Int64, currencyCode: String) {
        self.init(minorUnits: minorUnits, currency: Currency(code: currencyCode))
    }

    /// Parses a decimal amount such as `"12.99"` or `"-0.5"` exactly.
    ///
    /// - Parameters:
    ///   - decimal: Digits with an optional sign and `.` fraction of at most the currency's
    ///     minor digits.
    ///   - currency: The currency.
    /// - Returns: The amount, or `nil` when the text is not such a number or overflows.
    public init?(decimal: String, currency: Currency) {
        var text = Substring(decimal)
        var negative = false
        if let sign = text.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            text = text.dropFirst()
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty || parts.count == 2 else { return nil }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard fraction.count <= currency.minorUnitDigits, (parts[0] + fraction).allSatisfy({ $0.isASCII && $0.isNumber }), !(parts[0] + fraction).isEmpty else { return nil }
        let digits = parts[0] + fraction + String(repeating: "0", count: currency.minorUnitDigits - fraction.count)
        var value: Int64 = 0
        for digit in digits {
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (plus, overflow2) = times.addingReportingOverflow(Int64(digit.wholeNumberValue!))
            guard !overflow1, !overflow2 else { return nil }
            value = plus
        }
        self.init(minorUnits: negative ? -value : value, currency: currency)
    }

    /// Zero in `currency`.
    ///
    /// - Parameter currency: The currency.
    /// - Returns: An amount of zero.
    public static func zero(_ currency: Currency) -> Money { Money(minorUnits: 0, currency: currency) }

    /// Whether the amount is below zero.
    public var isNegative: Bool { minorUnits < 0 }

    /// The amount formatted for `locale`, e.g. `$12.99`, `-$0.05`, `1.234,56 €`, `￥1,299`.
    ///
    /// - Parameter locale: The formatting rules; `en_US` by default.
    /// - Returns: The text.
    public func format(locale: MoneyLocale = .enUS) -> String {
        locale.format(self)
    }

    /// `12.99 USD`: the plain decimal and code.
    public var description: String {
        let (whole, fraction) = splitMagnitude()
        let sign = isNegative ? "-" : ""
        return currency.minorUnitDigits == 0 ? "\(sign)\(whole) \(currency.code)" : "\(sign)\(whole).\(fraction) \(currency.code)"
    }

    /// The whole units and the zero-padded minor digits of the magnitude.
    func splitMagnitude() -> (whole: UInt64, fraction: String) {
        let magnitude = minorUnits.magnitude
        var divisor: UInt64 = 1
        for _ in 0..<currency.minorUnitDigits { divisor *= 10 }
        let fraction = String(magnitude % divisor)
        let padded = String(repeating: "0", count: max(0, currency.minorUnitDigits - fraction.count)) + fraction
        return (magnitude / divisor, currency.minorUnitDigits == 0 ? "" : padded)
    }

    // MARK: Arithmetic

    /// The sum; both amounts must be in the same currency.
    ///
    /// - Throws: ``MoneyError/currencyMismatch(_:_:)`` or ``MoneyError/overflow``.
    public func adding(_ other: Money) throws -> Money {
        guard currency == other.currency else { throw MoneyError.currencyMismatch(currency.code, other.currency.code) }
        let (sum, overflow) = minorUnits.addingReportingOverflow(other.minorUnits)
        guard !overflow else { throw MoneyError.overflow }
        return Money(minorUnits: sum, currency: currency)
    }

    /// The difference; both amounts must be in the same currency.
    ///
    /// - Throws: ``MoneyError/currencyMismatch(_:_:)`` or ``MoneyError/overflow``.
    public func subtracting(_ other: Money) throws -> Money {
        guard currency == other.currency else { throw MoneyError.currencyMismatch(currency.code, other.currency.code) }
        let (difference, overflow) = minorUnits.subtractingReportingOverflow(other.minorUnits)
        guard !overflow else { throw MoneyError.overflow }
        return Money(minorUnits: difference, currency: currency)
    }

    /// The amount times an integer count.
    ///
    /// - Throws: ``MoneyError/overflow``.
    public func multiplied(by count: Int64) throws -> Money {
        let (product, overflow) = minorUnits.multipliedReportingOverflow(by: count)
        guard !overflow else { throw MoneyError.overflow }
        return Money(minorUnits: product, currency: currency)
    }

    /// Splits the amount into `parts` amounts that differ by at most one minor unit and add
    /// up to it exactly (the first ones get the extra units).
    ///
    /// - Parameter parts: How many shares, at least 1.
    /// - Returns: The shares.
    public func allocated(into parts: Int) -> [Money] {
        precondition(parts > 0, "Cannot split money into \(parts) parts")
        let count = Int64(parts)
        let share = minorUnits / count
        let remainder = minorUnits % count
        return (0..<count).map { index in
            let extra: Int64 = index < remainder.magnitude ? (remainder < 0 ? -1 : 1) : 0
            return Money(minorUnits: share + extra, currency: currency)
        }
    }

    /// The sum; traps on a currency mismatch or overflow, like integer `+`.
    public static func + (lhs: Money, rhs: Money) -> Money {
        do { return try lhs.adding(rhs) } catch { preconditionFailure("\(error)") }
    }

    /// The difference; traps on a currency mismatch or overflow, like integer `-`.
    public static func - (lhs: Money, rhs: Money) -> Money {
        do { return try lhs.subtracting(rhs) } catch { preconditionFailure("\(error)") }
    }

    /// The amount times a count; traps on overflow.
    public static func * (lhs: Money, rhs: Int64) -> Money {
        do { return try lhs.multiplied(by: rhs) } catch { preconditionFailure("\(error)") }
    }

    /// The negated amount.
    public static prefix func - (amount: Money) -> Money {
        Money(minorUnits: -amount.minorUnits, currency: amount.currency)
    }

    /// Orders amounts of one currency (then by currency code, so sorting mixed lists is stable).
    public static func < (lhs: Money, rhs: Money) -> Bool {
        lhs.currency == rhs.currency ? lhs.minorUnits < rhs.minorUnits : lhs.currency.code < rhs.currency.code
    }
}

/// Why a money operation failed.
public enum MoneyError: Error, Equatable, Sendable {
    /// The amounts are in different currencies.
    case currencyMismatch(String, String)
    /// The result does not fit in 64 bits of minor units.
    case overflow
}

/// A currency: an ISO 4217 code, its minor-unit digits and its usual symbol.
public struct Currency: Hashable, Sendable {
    /// The ISO 4217 code, e.g. `USD`.
    public let code: String
    /// Digits after the decimal separator: 2 for USD, 0 for JPY, 3 for KWD.
    public let minorUnitDigits: Int
    /// The symbol, e.g. `$`; the code when there is none.
    public let symbol: String

    /// Creates a currency.
    ///
    /// - Parameters:
    ///   - code: The ISO 4217 code.
    ///   - minorUnitDigits: Digits after the decimal separator.
    ///   - symbol: The symbol.
    public init(code: String, minorUnitDigits: Int, symbol: String) {
        precondition((0...4).contains(minorUnitDigits), "Unsupported minor unit digits \(minorUnitDigits)")
        self.code = code
        self.minorUnitDigits = minorUnitDigits
        self.symbol = symbol
    }

    /// A known currency by code; an unknown code gets 2 digits and the code as its symbol.
    ///
    /// - Parameter code: The ISO 4217 code.
    public init(code: String) {
        self = Currency.known[code.uppercased()] ?? Currency(code: code.uppercased(), minorUnitDigits: 2, symbol: code.uppercased())
    }

    /// US dollar.
    public static let usd = Currency(code: "USD", minorUnitDigits: 2, symbol: "$")
    /// Euro.
    public static let eur = Currency(code: "EUR", minorUnitDigits: 2, symbol: "€")
    /// Pound sterling.
    public static let gbp = Currency(code: "GBP", minorUnitDigits: 2, symbol: "£")
    /// Japanese yen.
    public static let jpy = Currency(code: "JPY", minorUnitDigits: 0, symbol: "¥")
    /// Swiss franc.
    public static let chf = Currency(code: "CHF", minorUnitDigits: 2, symbol: "CHF")
    /// Kuwaiti dinar.
    public static let kwd = Currency(code: "KWD", minorUnitDigits: 3, symbol: "KWD")

    static let known: [String: Currency] = [
        "USD": .usd, "EUR": .eur, "GBP": .gbp, "JPY": .jpy, "CHF": .chf, "KWD": .kwd,
        "CAD": Currency(code: "CAD", minorUnitDigits: 2, symbol: "CA$"),
        "AUD": Currency(code: "AUD", minorUnitDigits: 2, symbol: "A$"),
    ]
}

/// How a locale writes money: separators, grouping, and where the symbol and sign go.
///
/// A handful of locales are built in, with rules written here (after CLDR) so the output is
/// the same on every platform, unlike `NumberFormatter`.
public struct MoneyLocale: Hashable, Sendable {
    /// Where the currency symbol goes.
    public enum SymbolPosition: Hashable, Sendable {
        /// Before the number: `$12.99`.
        case prefix
        /// After the number: `12,99 €`.
        case suffix
    }

    /// The locale identifier, e.g. `en_US`.
    public let identifier: String
    /// The decimal separator.
    public let decimalSeparator: String
    /// The thousands separator.
    public let groupingSeparator: String
    /// Grouping starts only when the integer part has at least `3 + minimumGroupingDigits`
    /// digits (1 almost everywhere; 2 for Spanish, which writes `1234,56 €`).
    public let minimumGroupingDigits: Int
    /// Where the symbol goes.
    public let symbolPosition: SymbolPosition
    /// Between the symbol and the number (a no-break space in many locales).
    public let symbolSpacing: String
    /// Symbols this locale writes differently, by currency code (e.g. `￥` in Japanese).
    public let symbolOverrides: [String: String]

    /// Creates rules for a locale.
    public init(identifier: String, decimalSeparator: String, groupingSeparator: String, minimumGroupingDigits: Int = 1, symbolPosition: SymbolPosition, symbolSpacing: String = "", symbolOverrides: [String: String] = [:]) {
        self.identifier = identifier
        self.decimalSeparator = decimalSeparator
        self.groupingSeparator = groupingSeparator
        self.minimumGroupingDigits = minimumGroupingDigits
        self.symbolPosition = symbolPosition
        self.symbolSpacing = symbolSpacing
        self.symbolOverrides = symbolOverrides
    }

    /// English (United States): `$1,234.56`, `-$1,234.56`.
    public static let enUS = MoneyLocale(identifier: "en_US", decimalSeparator: ".", groupingSeparator: ",", symbolPosition: .prefix, symbolOverrides: ["CAD": "CA$"])
    /// English (United Kingdom): `£1,234.56`, `US$1.00`.
    public static let enGB = MoneyLocale(identifier: "en_GB", decimalSeparator: ".", groupingSeparator: ",", symbolPosition: .prefix, symbolOverrides: ["USD": "US$"])
    /// German (Germany): `1.234,56 €`.
    public static let deDE = MoneyLocale(identifier: "de_DE", decimalSeparator: ",", groupingSeparator: ".", symbolPosition: .suffix, symbolSpacing: "\u{00A0}")
    /// French (France): `1 234,56 €` with a narrow no-break space between groups.
    public static let frFR = MoneyLocale(identifier: "fr_FR", decimalSeparator: ",", groupingSeparator: "\u{202F}", symbolPosition: .suffix, symbolSpacing: "\u{00A0}", symbolOverrides: ["USD": "$US"])
    /// Italian (Italy): `1.234,56 €`.
    public static let itIT = MoneyLocale(identifier: "it_IT", decimalSeparator: ",", groupingSeparator: ".", symbolPosition: .suffix, symbolSpacing: "\u{00A0}")
    /// Spanish (Spain): `1234,56 €` but `12.345,67 €`.
    public static let esES = MoneyLocale(identifier: "es_ES", decimalSeparator: ",", groupingSeparator: ".", minimumGroupingDigits: 2, symbolPosition: .suffix, symbolSpacing: "\u{00A0}", symbolOverrides: ["USD": "US$"])
    /// Japanese (Japan): `￥1,299`.
    public static let jaJP = MoneyLocale(identifier: "ja_JP", decimalSeparator: ".", groupingSeparator: ",", symbolPosition: .prefix, symbolOverrides: ["JPY": "￥"])
    /// German (Switzerland): `CHF 1’234.56`.
    public static let deCH = MoneyLocale(identifier: "de_CH", decimalSeparator: ".", groupingSeparator: "’", symbolPosition: .prefix, symbolSpacing: "\u{00A0}")

    /// The built-in locales.
    public static let all: [MoneyLocale] = [.enUS, .enGB, .deDE, .frFR, .itIT, .esES, .jaJP, .deCH]

    /// A built-in locale by identifier (`en_US` or `en-US`).
    ///
    /// - Parameter identifier: The locale identifier.
    /// - Returns: The rules, or `nil` for a locale not built in.
    public static func named(_ identifier: String) -> MoneyLocale? {
        let normalized = identifier.replacingOccurrences(of: "-", with: "_")
        return all.first { $0.identifier == normalized }
    }

    /// Formats `money` with these rules.
    ///
    /// - Parameter money: The amount.
    /// - Returns: The text, minus sign first (`-$1.00`, `-1,00 €`).
    public func format(_ money: Money) -> String {
        let (whole, fraction) = money.splitMagnitude()
        let digits = String(whole)
        var grouped = ""
        if digits.count >= 3 + minimumGroupingDigits {
            for (index, digit) in digits.enumerated() {
                if index > 0, (digits.count - index) % 3 == 0 { grouped += groupingSeparator }
                grouped.append(digit)
            }
        } else {
            grouped = digits
        }
        let number = fraction.isEmpty ? grouped : grouped + decimalSeparator + fraction
        let symbol = symbolOverrides[money.currency.code] ?? money.currency.symbol
        let body = symbolPosition == .prefix ? symbol + symbolSpacing + number : number + symbolSpacing + symbol
        return money.isNegative ? "-" + body : body
    }
}
