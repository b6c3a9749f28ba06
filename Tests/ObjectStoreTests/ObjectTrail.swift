import Foundation
import Locking
import Streams
@testable import ObjectStore

/// What an observer of one ``Card`` (``Store/observe(_:forPrimaryKey:on:)``, on the immediate
/// scheduler) was sent, checked after each commit against the object before and after it: a
/// change of fields is sent with the object as it now is and every field that changed, old and
/// new values right; a deletion is sent once, then completion, then nothing.
final class ObjectTrail: @unchecked Sendable {
    let key: Int
    private let lock = Lock()
    private var events: [ObjectChange<Card>] = []
    private var completions = 0
    private var subscription: Disposable?
    /// Whether the deletion was sent (the trail is then done).
    private(set) var ended = false

    init(_ store: Store, key: Int) {
        self.key = key
        subscription = store.observe(Card.self, forPrimaryKey: key, on: ImmediateScheduler.instance)
            .subscribe(onNext: { [self] change in lock.withLock { events.append(change) } },
                       onCompleted: { [self] in lock.withLock { completions += 1 } })
    }

    func dispose() { subscription?.dispose() }

    /// What is wrong with the events sent since the last check, given the object before the
    /// commit (which was stored then) and after it.
    func check(before: Card?, after: Card?) -> [String] {
        let (events, completions) = lock.withLock { () -> ([ObjectChange<Card>], Int) in
            defer { self.events = [] }
            return (self.events, self.completions)
        }
        let name = "object \(key)"
        if ended { return events.isEmpty && completions == 1 ? [] : ["\(name): events after its deletion"] }
        guard let before else { return ["\(name): observed while not stored"] }
        guard let after else {
            ended = true
            guard events.count == 1, case .deleted = events[0], completions == 1 else {
                return ["\(name): deleted, sent \(events.map(Self.describe)) and \(completions) completions"]
            }
            return []
        }
        if completions != 0 { return ["\(name): completed while stored"] }
        if events.count > 1 { return ["\(name): \(events.count) events for one commit"] }
        guard let event = events.first else {
            return before == after ? [] : ["\(name): changed from \(before) to \(after), nothing sent"]
        }
        guard case .change(let object, let properties) = event else { return ["\(name): sent \(Self.describe(event)) while stored"] }
        var failures: [String] = []
        if object != after { failures.append("\(name): sent \(object), stored \(after)") }
        for field in ["name", "group", "score", "note"] {
            let property = properties.first { $0.name == field }
            if let property {
                if !Self.holds(property.oldValue, before, field) || !Self.holds(property.newValue, after, field) {
                    failures.append("\(name): \(field) from \(String(describing: property.oldValue)) to \(String(describing: property.newValue))")
                }
            } else if Self.value(before, field) != Self.value(after, field) {
                failures.append("\(name): \(field) changed, not listed in \(properties.map(\.name))")
            }
        }
        return failures
    }

    private static func value(_ entry: Card, _ field: String) -> String? {
        switch field {
        case "name": return entry.name
        case "group": return "\(entry.group)"
        case "score": return "\(entry.score)"
        default: return entry.note
        }
    }

    private static func holds(_ value: Any?, _ entry: Card, _ field: String) -> Bool {
        switch field {
        case "name", "note": return (value as? String) == Self.value(entry, field)
        default: return (value as? Int).map { "\($0)" } == Self.value(entry, field)
        }
    }

    private static func describe(_ change: ObjectChange<Card>) -> String {
        switch change {
        case .change(let object, let properties): return "change(\(object.id), \(properties.map(\.name)))"
        case .deleted: return "deleted"
        case .error(let error): return "error(\(error))"
        }
    }
}
