import Foundation
@testable import Pizzaiolo
import TestSupport
import Testing

@MainActor @Suite(.resourceCheck) struct MoneyTests {
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

    @Test func formatsACurrencyWithoutMinorDigitsAndOneWithThree() {
        let yen = Currency(code: "JPY", minorUnitDigits: 0, symbol: "¥")
        #expect(Money(minorUnits: 1299, currency: yen).format() == "¥1,299")
        #expect(Money(minorUnits: -7, currency: yen).format() == "-¥7")
        let dinar = Currency(code: "KWD", minorUnitDigits: 3, symbol: "KWD")
        #expect(Money(minorUnits: 1_500, currency: dinar).format() == "KWD1.500")
        #expect(Money(minorUnits: 5, currency: dinar).format() == "KWD0.005")
    }
}
