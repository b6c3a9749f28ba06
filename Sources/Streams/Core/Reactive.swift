import Foundation

/// The `.rx` namespace: a wrapper that carries the reactive extensions of a base object.
///
/// Extensions written on `Reactive where Base: Label` appear as `label.rx.text`, as in RxCocoa.
///
///     label.rx.text.onNext("Margherita")
@dynamicMemberLookup
public struct Reactive<Base> {
    /// The object the extensions act on.
    public let base: Base

    /// Wraps `base`.
    ///
    /// - Parameter base: The object the extensions act on.
    public init(_ base: Base) {
        self.base = base
    }

    /// A binder for any writable property of an object base, e.g. `view.rx.alpha` when no
    /// dedicated extension exists.
    ///
    /// - Parameter keyPath: The property to set on the main scheduler.
    /// - Returns: A ``Binder`` that writes the property.
    public subscript<Property>(dynamicMember keyPath: ReferenceWritableKeyPath<Base, Property>) -> Binder<Property> where Base: AnyObject {
        // Key paths to class properties are immutable values; the box carries one to the
        // binding, which runs on the main actor.
        let path = UncheckedSendable(keyPath)
        return Binder(base) { base, value in base[keyPath: path.value] = value }
    }
}

/// A type that offers reactive extensions under `.rx`.
public protocol ReactiveCompatible {
    /// The type extended under `.rx`.
    associatedtype ReactiveBase

    /// The reactive extensions of the type itself.
    static var rx: Reactive<ReactiveBase>.Type { get set }

    /// The reactive extensions of this value.
    var rx: Reactive<ReactiveBase> { get set }
}

extension ReactiveCompatible {
    /// The reactive extensions of the type itself.
    public static var rx: Reactive<Self>.Type {
        get { Reactive<Self>.self }
        // Setting `rx` lets `mutating` extensions be called; there is nothing to store.
        set {}
    }

    /// The reactive extensions of this value.
    public var rx: Reactive<Self> {
        get { Reactive(self) }
        // Setting `rx` lets `mutating` extensions be called; there is nothing to store.
        set {}
    }
}

/// Every `NSObject` (a `URLSession`, and on Apple platforms a `NotificationCenter`) has `rx`,
/// as in RxSwift.
extension NSObject: ReactiveCompatible {}

#if !canImport(Darwin)
/// `NotificationCenter` is not an `NSObject` in swift-corelibs-foundation: it gets `rx` here.
extension NotificationCenter: ReactiveCompatible {}
#endif
