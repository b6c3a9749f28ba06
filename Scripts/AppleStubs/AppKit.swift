// A stand-in for AppKit (see README.md): IndexPath's additions (no `row`) and a few names.
@_exported import Foundation

extension IndexPath {
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }
    public var section: Int { get { self[0] } set { self[0] = newValue } }
    public var item: Int { get { self[1] } set { self[1] = newValue } }
}

@MainActor open class NSResponder { public init() {} }
@MainActor open class NSView: NSResponder {}
@MainActor open class NSViewController: NSResponder {}
public struct NSImage {}
public struct NSColor {}
