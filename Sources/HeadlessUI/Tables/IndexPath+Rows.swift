import Foundation

// UIKit's and AppKit's additions to `IndexPath`, for the headless layer: on Linux nothing else
// declares them; on Apple platforms UIKit (`row`, `section`, `item` and both initialisers) and
// AppKit (`item`, `section`, `init(item:section:)`) do, but only in files that import them,
// which this module never does. Each member here is a disfavoured overload, so in a file that
// imports UIKit or AppKit beside this module the framework's member is chosen and nothing is
// ambiguous, and in a file that imports neither (this module's own, or a headless screen's)
// this one is. The same file is compiled on every platform; `Scripts/check-apple.sh` checks it
// against stand-ins of both frameworks.
extension IndexPath {
    /// A two-element index path for a table row (UIKit's `IndexPath(row:section:)`).
    ///
    /// - Parameters:
    ///   - row: The row within the section.
    ///   - section: The section.
    @_disfavoredOverload
    public init(row: Int, section: Int) {
        self.init(indexes: [section, row])
    }

    /// A two-element index path for a collection item (UIKit's `IndexPath(item:section:)`).
    ///
    /// - Parameters:
    ///   - item: The item within the section.
    ///   - section: The section.
    @_disfavoredOverload
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// The section: the first index.
    @_disfavoredOverload
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }

    /// The row: the second index.
    @_disfavoredOverload
    public var row: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// The item: the second index.
    @_disfavoredOverload
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}

extension IndexPath {
    /// `[section,row]`, as ``View/render()`` shows it.
    var shortDescription: String { "[\(self[0]),\(self[1])]" }
}
