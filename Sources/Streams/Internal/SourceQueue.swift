/// The sources an operator subscribes to one after another (`concat`, `catch(sequence:)`),
/// each let go of as it is taken, so that a source that has finished is not kept alive by the
/// subscription that moved past it (RxSwift's `andThen` promises as much of its first
/// completable).
///
/// An array's sources already exist: they are held in reverse and popped. Any other sequence
/// is read lazily through its iterator, one source when the previous one has finished, and
/// holds what the sequence's own iterator holds.
struct SourceQueue<Element> {
    /// The array's sources not yet taken, last first.
    private var reversed: [Observable<Element>]
    /// The iterator of a sequence that is not an array.
    private var iterator: AnyIterator<Observable<Element>>?

    /// The sources of `sources`, in order.
    init<Sources: Sequence>(_ sources: Sources) where Sources.Element == Observable<Element> {
        if let array = sources as? [Observable<Element>] {
            reversed = array.reversed()
            iterator = nil
        } else {
            reversed = []
            iterator = AnyIterator(sources.makeIterator())
        }
    }

    /// The next source, which the queue no longer holds, or `nil` after the last.
    mutating func next() -> Observable<Element>? {
        if let iterator { return iterator.next() }
        return reversed.popLast()
    }
}
