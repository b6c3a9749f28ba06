// A stand-in for Combine (see README.md): the names its users meet first.
public protocol Subscription: AnyObject {}
public protocol ObservableObject: AnyObject {}
@propertyWrapper public struct Published<Value> {
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
    public var wrappedValue: Value
}
public protocol Cancellable { func cancel() }
public final class AnyCancellable: Cancellable { public init() {}; public func cancel() {} }
