/// A section of a sectioned list: its items and a way to rebuild it with other items
/// (RxDataSources' `SectionModelType`).
public protocol SectionModelType {
    /// The type of the rows.
    associatedtype Item

    /// The rows, in order.
    var items: [Item] { get }

    /// The same section holding `items`.
    ///
    /// - Parameters:
    ///   - original: The section to copy.
    ///   - items: The new rows.
    init(original: Self, items: [Item])
}

/// A value with a stable identity, used to match old and new rows in a diff.
public protocol IdentifiableType {
    /// The type of the identity.
    associatedtype Identity: Hashable

    /// What stays the same when the value changes.
    var identity: Identity { get }
}

/// A section whose identity and rows' identities let a diff animate changes.
public protocol AnimatableSectionModelType: SectionModelType, IdentifiableType where Item: IdentifiableType, Item: Equatable {}

/// A section: a model (the header's value) and rows.
///
///     let sections = [SectionModel(model: "Pizzas", items: ["Margherita", "Marinara"])]
public struct SectionModel<Section, ItemType>: SectionModelType, CustomStringConvertible {
    /// The section's model.
    public var model: Section
    /// The rows.
    public var items: [ItemType]

    /// Creates a section.
    ///
    /// - Parameters:
    ///   - model: The section's model.
    ///   - items: The rows.
    public init(model: Section, items: [ItemType]) {
        self.model = model
        self.items = items
    }

    /// The same section holding `items`.
    public init(original: SectionModel<Section, ItemType>, items: [ItemType]) {
        self.model = original.model
        self.items = items
    }

    /// `model > items`.
    public var description: String { "\(model) > \(items)" }
}

/// A section that can be diffed: identified by its model's identity, rows by theirs.
///
///     AnimatableSectionModel(model: "Pizzas", items: [pizza1, pizza2])
public struct AnimatableSectionModel<Section: IdentifiableType, ItemType: IdentifiableType & Equatable>: AnimatableSectionModelType, CustomStringConvertible {
    /// The section's model; its identity is the section's.
    public var model: Section
    /// The rows.
    public var items: [ItemType]

    /// Creates a section.
    ///
    /// - Parameters:
    ///   - model: The section's model.
    ///   - items: The rows.
    public init(model: Section, items: [ItemType]) {
        self.model = model
        self.items = items
    }

    /// The same section holding `items`.
    public init(original: AnimatableSectionModel<Section, ItemType>, items: [ItemType]) {
        self.model = original.model
        self.items = items
    }

    /// The model's identity.
    public var identity: Section.Identity { model.identity }

    /// `model > items`.
    public var description: String { "\(model) > \(items)" }
}

extension AnimatableSectionModel: Equatable where Section: Equatable {}

extension String: IdentifiableType {
    /// The string itself.
    public var identity: String { self }
}

extension Int: IdentifiableType {
    /// The integer itself.
    public var identity: Int { self }
}

/// A section or row position (RxDataSources' `ItemPath`).
public struct ItemPath: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The section index.
    public let sectionIndex: Int
    /// The row index within the section.
    public let itemIndex: Int

    /// Creates a path.
    ///
    /// - Parameters:
    ///   - sectionIndex: The section index.
    ///   - itemIndex: The row index.
    public init(sectionIndex: Int, itemIndex: Int) {
        self.sectionIndex = sectionIndex
        self.itemIndex = itemIndex
    }

    /// `(section, item)`.
    public var description: String { "(\(sectionIndex), \(itemIndex))" }

    /// The same as ``description``.
    public var debugDescription: String { description }
}

extension SectionModel {
    /// The type of the section's items.
    public typealias Item = ItemType

    /// The type that identifies a section: its model.
    public typealias Identity = Section

    /// The section's identity: its model.
    public var identity: Section { model }
}

extension AnimatableSectionModel {
    /// The type of the section's items.
    public typealias Item = ItemType

    /// The type that identifies the section: its model's identity.
    public typealias Identity = Section.Identity
}

/// A hashable value that is its own identity, to use a plain value as an animated item.
///
///     let items = ["Margherita", "Diavola"].map(IdentifiableValue.init)
public struct IdentifiableValue<Value: Hashable>: IdentifiableType, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The type of the identity: the value's.
    public typealias Identity = Value

    /// The value.
    public let value: Value

    /// Wraps `value`.
    ///
    /// - Parameter value: The value, its own identity.
    public init(value: Value) { self.value = value }

    /// The value itself.
    public var identity: Value { value }

    /// The value's description.
    public var description: String { "\(value)" }

    /// `IdentifiableValue(value)`.
    public var debugDescription: String { "IdentifiableValue(\(value))" }
}
