// Fuzz target: the marble-string parser of StreamsTesting.
// Any bytes → events or a `MarbleError`; never a crash, never a hang.
// Built and run by Scripts/fuzz.sh (libFuzzer, `swiftc -sanitize=fuzzer,address`).
import Streams
import StreamsTesting

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMarbles(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    // The first byte picks the frame width (1...64) so the time arithmetic is exercised too.
    let timePerFrame = size > 0 ? Int(bytes[0] % 64) + 1 : 10
    let text = String(decoding: bytes.dropFirst(), as: UTF8.self)

    // Value characters stand for themselves.
    do {
        let events = try Marbles.events(text, timePerFrame: timePerFrame, startTime: 200)
        check(events, text: text)
        // Drawing the parsed events back must not crash either.
        var values: [Character: String] = [:]
        for case .next(let value) in events.map(\.value) { values[Character(value)] = value }
        _ = Marbles.string(from: events, values: values, timePerFrame: timePerFrame, startTime: 200)
    } catch {
        precondition(error.column >= 1, "error column must be 1-based: \(error)")
    }

    // A fixed value table: every other character must be reported, not crash.
    do {
        let events = try Marbles.events(text, values: ["a": 1, "b": 2, "c": 3], timePerFrame: timePerFrame)
        check(events, text: text)
    } catch {
        precondition(error.column >= 1, "error column must be 1-based: \(error)")
    }

    // Cold observables reject `^`.
    let scheduler = TestScheduler(initialClock: 0)
    _ = try? scheduler.createColdObservable(text, values: ["a": 1, "b": 2])
    return 0
}

/// The grammar of events holds for whatever parsed: times never go down, nothing after a terminal event.
private func check<Element>(_ events: [Recorded<Event<Element>>], text: String) {
    var previous = Int.min
    var terminated = false
    for recorded in events {
        precondition(!terminated, "event after a terminal event in \(text.debugDescription)")
        precondition(recorded.time >= previous, "times go down in \(text.debugDescription)")
        previous = recorded.time
        if recorded.value.isStopEvent { terminated = true }
    }
}
