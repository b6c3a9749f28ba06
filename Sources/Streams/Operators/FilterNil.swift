/// A type that may hold a value, as `Optional` does; lets operators such as ``ObservableType/filterNil()``
/// be written for sequences of optionals (RxOptional's protocol).
public protocol OptionalType {
    /// The type of the value held.
    associatedtype Wrapped
    /// The value held, or `nil`.
    var value: Wrapped? { get }
}

extension Optional: OptionalType {
    /// The optional itself.
    public var value: Wrapped? { self }
}

extension ObservableType where Element: OptionalType {
    /// Drops the `nil` elements and unwraps the others.
    ///
    ///     --1--n--3--|
    ///     filterNil()
    ///     --1-----3--|
    ///
    /// (`n` is `nil`.)
    ///
    /// - Returns: The non-`nil` values.
    public func filterNil() -> Observable<Element.Wrapped> {
        CompactMap(source: asObservable()) { $0.value }
    }

    /// Drops the `nil` elements and unwraps the others (RxSwiftExt's name for ``filterNil()``).
    ///
    ///     --1--n--3--|
    ///     unwrap()
    ///     --1-----3--|
    ///
    /// (`n` is `nil`.)
    ///
    /// - Returns: The non-`nil` values.
    public func unwrap() -> Observable<Element.Wrapped> {
        CompactMap(source: asObservable()) { $0.value }
    }
}
