import Foundation

#if !canImport(UIKit)
extension IndexPath {
    /// A two-element index path for a table row (UIKit's `IndexPath(row:section:)`).
    ///
    /// - Parameters:
    ///   - row: The row within the section.
    ///   - section: The section.
    public init(row: Int, section: Int) {
        self.init(indexes: [section, row])
    }

    /// The section: the first index.
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }

    /// The row: the second index.
    public var row: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}
#endif

#if !canImport(UIKit) && !canImport(AppKit)
extension IndexPath {
    /// A two-element index path for a collection item (UIKit's `IndexPath(item:section:)`).
    ///
    /// - Parameters:
    ///   - item: The item within the section.
    ///   - section: The section.
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// The item: the second index.
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}
#endif

extension IndexPath {
    /// `[section,row]`, as ``View/render()`` shows it.
    var shortDescription: String { "[\(self[0]),\(self[1])]" }
}
