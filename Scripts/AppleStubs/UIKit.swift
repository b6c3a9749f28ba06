// A stand-in for UIKit (see README.md): IndexPath's additions and a few names.
@_exported import Foundation

extension IndexPath {
    public init(row: Int, section: Int) { self.init(indexes: [section, row]) }
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }
    public var section: Int { get { self[0] } set { self[0] = newValue } }
    public var row: Int { get { self[1] } set { self[1] = newValue } }
    public var item: Int { get { self[1] } set { self[1] = newValue } }
}

@MainActor open class UIResponder { public init() {} }
@MainActor open class UIView: UIResponder {}
@MainActor open class UIViewController: UIResponder {
    open func viewDidLoad() {}
}
@MainActor open class UILabel: UIView { open var text: String? }
@MainActor open class UIButton: UIView {}
@MainActor open class UITableView: UIView {}
public struct UIImage {}
public struct UIColor {}
