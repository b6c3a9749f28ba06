// A stand-in for SwiftUI (see README.md): the names an app's SwiftUI file uses that a library
// of ours could also declare, and Observation, which SwiftUI re-exports.
@_exported import Foundation
@_exported import Observation

@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}
@resultBuilder public enum ViewBuilder {
    nonisolated public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> { TupleView() }
}
public struct EmptyView: View { nonisolated public init() {}; public var body: EmptyView { self } }
public struct TupleView<T>: View { nonisolated public init() {}; public var body: EmptyView { EmptyView() } }
public struct Text: View {
    public init(_ content: String) {}
    public var body: EmptyView { EmptyView() }
}
public struct Image: View { public init(systemName: String) {}; public var body: EmptyView { EmptyView() } }
public struct Label: View { public init(_ title: String, systemImage: String) {}; public var body: EmptyView { EmptyView() } }
public struct Button: View {
    public init(_ title: String, action: @escaping @MainActor () -> Void) {}
    public var body: EmptyView { EmptyView() }
}
public struct TextField: View {
    public init(_ title: String, text: Binding<String>) {}
    public var body: EmptyView { EmptyView() }
}
public struct ProgressView: View { public init() {}; public var body: EmptyView { EmptyView() } }
public struct List<Content: View>: View {
    public init(@ViewBuilder content: () -> Content) {}
    public var body: EmptyView { EmptyView() }
}
public struct ForEach<Data: RandomAccessCollection, Content: View>: View where Data.Element: Identifiable {
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {}
    public var body: EmptyView { EmptyView() }
}
public struct Color: View { public static let red = Color(); public var body: EmptyView { EmptyView() } }
public struct Transaction { public init() {} }
@propertyWrapper @dynamicMemberLookup public struct Binding<Value> {
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) { getter = get; setter = set }
    private let getter: () -> Value
    private let setter: (Value) -> Void
    public var wrappedValue: Value { get { getter() } nonmutating set { setter(newValue) } }
    public var projectedValue: Binding<Value> { self }
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        Binding<Subject>(get: { self.wrappedValue[keyPath: keyPath] }, set: { self.wrappedValue[keyPath: keyPath] = $0 })
    }
}
@propertyWrapper public struct State<Value> {
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
    public var wrappedValue: Value
}
public struct Toggle: View {
    public init(_ title: String, isOn: Binding<Bool>) {}
    public var body: EmptyView { EmptyView() }
}
public struct Form<Content: View>: View {
    public init(@ViewBuilder content: () -> Content) {}
    public var body: EmptyView { EmptyView() }
}
extension View {
    public func disabled(_ disabled: Bool) -> some View { self }
    public func searchable(text: Binding<String>) -> some View { self }
}
/// `@Bindable`: bindings to an observable object's writable properties.
@propertyWrapper @dynamicMemberLookup public struct Bindable<Value: AnyObject & Observable> {
    public var wrappedValue: Value
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
    public init(_ value: Value) { self.wrappedValue = value }
    public var projectedValue: Bindable<Value> { self }
    public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<Value, Subject>) -> Binding<Subject> {
        let object = wrappedValue
        return Binding(get: { object[keyPath: keyPath] }, set: { object[keyPath: keyPath] = $0 })
    }
}
