import Foundation
@testable import Pizzaiolo
import TestSupport
import Testing

@Suite(.resourceCheck) struct MoneyTests {
    @Test func formatsUSDollarsInEnglish() {
        #expect(Money(minorUnits: 1299, currency: .usd).format() == "$12.99")
        #expect(Money(minorUnits: 0, currency: .usd).format() == "$0.00")
        #expect(Money(minorUnits: -5, currency: .usd).format() == "-$0.05")
        #expect(Money(minorUnits: 123_456_789, currency: .usd).format() == "$1,234,567.89")
        #expect(Money(minorUnits: 100_000, currency: .usd).format() == "$1,000.00")
        #expect(Money(minorUnits: 99_999, currency: .usd).format() == "$999.99")
    }

    @Test func formatsTheExtremes() {
        #expect(Money(minorUnits: .max, currency: .usd).format() == "$92,233,720,368,547,758.07")
        #expect(Money(minorUnits: .min, currency: .usd).format() == "-$92,233,720,368,547,758.08")
    }

    @Test func formatsOtherLocalesAndCurrencies() {
        let euros = Money(minorUnits: 123_456, currency: .eur)
        #expect(euros.format(locale: .deDE) == "1.234,56\u{00A0}€")
        #expect(euros.format(locale: .frFR) == "1\u{202F}234,56\u{00A0}€")
        #expect(euros.format(locale: .itIT) == "1.234,56\u{00A0}€")
        #expect(euros.format(locale: .esES) == "1234,56\u{00A0}€")
        #expect(Money(minorUnits: 1_234_567, currency: .eur).format(locale: .esES) == "12.345,67\u{00A0}€")
        #expect((-euros).format(locale: .deDE) == "-1.234,56\u{00A0}€")
        #expect(Money(minorUnits: 1299, currency: .jpy).format(locale: .jaJP) == "￥1,299")
        #expect(Money(minorUnits: 1299, currency: .jpy).format() == "¥1,299")
        #expect(Money(minorUnits: 1299, currency: .gbp).format(locale: .enGB) == "£12.99")
        #expect(Money(minorUnits: 100, currency: .usd).format(locale: .enGB) == "US$1.00")
        #expect(Money(minorUnits: 123_456, currency: .chf).format(locale: .deCH) == "CHF\u{00A0}1’234.56")
        #expect(Money(minorUnits: 1_500, currency: .kwd).format() == "KWD1.500")
        #expect(Money(minorUnits: 250, currencyCode: "xyz").format() == "XYZ2.50")
        #expect(MoneyLocale.named("de-DE") == .deDE)
        #expect(MoneyLocale.named("tlh_KX") == nil)
    }

    @Test func arithmeticIsExactInteger() throws {
        let price = Money(minorUnits: 1299, currency: .usd)
        #expect((price * 3).minorUnits == 3897)
        #expect((price + Money(minorUnits: 1, currency: .usd)).format() == "$13.00")
        #expect((price - price * 2).format() == "-$12.99")
        // 0.1 + 0.2 is exactly 0.3 here.
        let sum = Money(decimal: "0.10", currency: .usd)! + Money(decimal: "0.2", currency: .usd)!
        #expect(sum == Money(decimal: "0.3", currency: .usd))
        #expect(throws: MoneyError.currencyMismatch("USD", "EUR")) { try price.adding(Money(minorUnits: 1, currency: .eur)) }
        #expect(throws: MoneyError.overflow) { try Money(minorUnits: .max, currency: .usd).adding(price) }
        #expect(throws: MoneyError.overflow) { try price.multiplied(by: .max) }
    }

    @Test func allocationAddsUpExactly() {
        let shares = Money(minorUnits: 1000, currency: .usd).allocated(into: 3)
        #expect(shares.map(\.minorUnits) == [334, 333, 333])
        let negative = Money(minorUnits: -1000, currency: .usd).allocated(into: 3)
        #expect(negative.map(\.minorUnits) == [-334, -333, -333])
        #expect(negative.reduce(.zero(.usd), +) == Money(minorUnits: -1000, currency: .usd))
    }

    @Test func parsesDecimals() {
        #expect(Money(decimal: "12.99", currency: .usd)?.minorUnits == 1299)
        #expect(Money(decimal: "-0.5", currency: .usd)?.minorUnits == -50)
        #expect(Money(decimal: "1299", currency: .jpy)?.minorUnits == 1299)
        #expect(Money(decimal: "1.5", currency: .jpy) == nil)
        #expect(Money(decimal: "1.999", currency: .usd) == nil)
        #expect(Money(decimal: "abc", currency: .usd) == nil)
        #expect(Money(decimal: "", currency: .usd) == nil)
        #expect(Money(decimal: "99999999999999999999", currency: .usd) == nil)
        #expect(Money(minorUnits: 1299, currency: .usd).description == "12.99 USD")
    }

    @Test func ordersWithinACurrency() {
        let amounts = [Money(minorUnits: 5, currency: .usd), Money(minorUnits: -5, currency: .usd), Money(minorUnits: 0, currency: .usd)]
        #expect(amounts.sorted().map(\.minorUnits) == [-5, 0, 5])
    }
}
