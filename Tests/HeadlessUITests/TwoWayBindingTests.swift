import Foundation
import HeadlessUI
import Streams
import TestSupport
import Testing

/// A stand-in for a stored model field: a subject of its values and a log of writes.
final class FakeStoredField<Value> {
    let subject: BehaviorSubject<Value>
    var writes: [Value] = []
    var failNextWrite = false

    init(_ value: Value) { subject = BehaviorSubject(value: value) }

    func write(_ value: Value) throws {
        if failNextWrite {
            failNextWrite = false
            throw TestError.boom
        }
        writes.append(value)
        subject.onNext(value) // the store notifies observers of its change
    }
}

@MainActor @Suite(.resourceCheck) struct TwoWayBindingTests {
    @Test func noWriteBackAtConstruction() {
        let stored = FakeStoredField("Margherita")
        let name = Variable("")
        let binding = name.bindTwoWay(to: stored.subject, write: stored.write)
        #expect(name.value == "Margherita")
        #expect(stored.writes.isEmpty)
        binding.dispose()
    }

    @Test func variableChangesAreWrittenOnceWithoutEcho() {
        let stored = FakeStoredField("Margherita")
        let name = Variable("Margherita")
        var seen: [String] = []
        let bag = DisposeBag()
        name.asObservable().subscribe(onNext: { seen.append($0) }).disposed(by: bag)
        name.bindTwoWay(to: stored.subject, write: stored.write).disposed(by: bag)
        name.value = "Marinara"
        #expect(stored.writes == ["Marinara"])
        #expect(seen == ["Margherita", "Marinara"])
    }

    @Test func storeChangesUpdateTheVariableWithoutWritingBack() {
        let stored = FakeStoredField(8)
        let price = Variable(0)
        let bag = DisposeBag()
        price.bindTwoWay(to: stored.subject, write: stored.write).disposed(by: bag)
        stored.subject.onNext(9)
        stored.subject.onNext(10)
        #expect(price.value == 10)
        #expect(stored.writes.isEmpty)
    }

    @Test func aFailedWriteRestoresTheStoredValue() {
        let stored = FakeStoredField("a")
        let text = Variable("a")
        var failures: [Error] = []
        let bag = DisposeBag()
        text.bindTwoWay(to: stored.subject, write: stored.write, onError: { failures.append($0) }).disposed(by: bag)
        stored.failNextWrite = true
        text.value = "b"
        #expect(failures.count == 1)
        #expect(text.value == "a")
        #expect(stored.writes.isEmpty)
        text.value = "c"
        #expect(stored.writes == ["c"])
    }

    @Test func disposingStopsBothDirections() {
        let stored = FakeStoredField(1)
        let value = Variable(1)
        let binding = value.bindTwoWay(to: stored.subject, write: stored.write)
        binding.dispose()
        value.value = 2
        stored.subject.onNext(3)
        #expect(stored.writes.isEmpty)
        #expect(value.value == 2)
    }

    @Test func bindsThroughATextField() {
        let stored = FakeStoredField("Margherita")
        let name = Variable("")
        let field = TextField()
        let bag = DisposeBag()
        Headless.run {
            name.bindTwoWay(to: stored.subject, write: stored.write).disposed(by: bag)
            name.asObservable().bind(to: field.rx.text).disposed(by: bag)
            field.rx.text.orEmpty.changed.bind(to: name).disposed(by: bag)
        }
        #expect(field.text == "Margherita")
        #expect(stored.writes.isEmpty)
        Headless.run { field.type("!") }
        #expect(stored.writes == ["Margherita!"])
        Headless.run { stored.subject.onNext("Diavola") }
        #expect(field.text == "Diavola")
        #expect(stored.writes == ["Margherita!"])
    }
}
