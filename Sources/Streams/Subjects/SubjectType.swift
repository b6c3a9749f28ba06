/// A type that is both an observable sequence and an observer: events sent to it are
/// multicast to its subscribers.
public protocol SubjectType<Element>: ObservableType {
    /// The observer side's element type.
    associatedtype Observer: ObserverType

    /// The subject as an observer.
    func asObserver() -> Observer
}
