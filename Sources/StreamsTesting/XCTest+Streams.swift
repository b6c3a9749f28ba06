#if canImport(XCTest)
import Streams
import XCTest

// RxTest's XCTest assertions, for test suites written with XCTest. (With Swift Testing, compare
// with `#expect(a == b)`: `Event`, `MaybeEvent`, `CompletableEvent` and `Recorded` are
// `Equatable` when their element is.)

/// Asserts that two lists of `Single` outcomes are equal: successes with equal elements, failures
/// with equal errors (by `==` when the error type is `Equatable`, else by type and
/// description). On failure the differing positions are listed.
public func XCTAssertEqual<Element: Equatable>(_ lhs: [SingleEvent<Element>], _ rhs: [SingleEvent<Element>], file: StaticString = #filePath, line: UInt = #line) {
    assertEqualSequences(lhs, rhs, file: file, line: line) { a, b in
        switch (a, b) {
        case (.success(let x), .success(let y)): return x == y
        case (.failure(let x), .failure(let y)): return errorsAreEqual(x, y)
        default: return false
        }
    }
}

/// Asserts that a recording holds exactly `elements` as its `next` events, ignoring times, and
/// no `completed` or `error` event.
public func XCTAssertRecordedElements<Element: Equatable>(_ stream: [Recorded<Event<Element>>], _ elements: [Element], file: StaticString = #filePath, line: UInt = #line) {
    if let stop = stream.first(where: { if case .next = $0.value { return false } else { return true } }) {
        XCTFail("the recording has a stop event: \(stop)", file: file, line: line)
        return
    }
    let recorded = stream.compactMap { recorded -> Element? in
        if case .next(let element) = recorded.value { return element } else { return nil }
    }
    assertEqualSequences(recorded, elements, file: file, line: line, by: ==)
}

/// Fails with every position at which `lhs` and `rhs` differ.
private func assertEqualSequences<Element>(_ lhs: [Element], _ rhs: [Element], file: StaticString, line: UInt, by equal: (Element, Element) -> Bool) {
    var differences: [String] = []
    for index in 0..<max(lhs.count, rhs.count) {
        let left = index < lhs.count ? "\(lhs[index])" : "(none)"
        let right = index < rhs.count ? "\(rhs[index])" : "(none)"
        if index >= lhs.count || index >= rhs.count || !equal(lhs[index], rhs[index]) {
            differences.append("[\(index)] \(left) ≠ \(right)")
        }
    }
    if !differences.isEmpty {
        XCTFail("the sequences differ:\n" + differences.joined(separator: "\n"), file: file, line: line)
    }
}
#endif
