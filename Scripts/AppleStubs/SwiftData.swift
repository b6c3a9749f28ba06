// A stand-in for SwiftData (see README.md): `@Query`'s name.
@propertyWrapper public struct Query<Element> {
    public init() {}
    public var wrappedValue: [Element] { [] }
}
