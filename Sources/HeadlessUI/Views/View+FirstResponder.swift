/// The first responder: as in UIKit, at most one view of a view hierarchy (the views under one
/// root, such as a window or a screen's root view) receives the keyboard at a time. A text
/// field that becomes first responder ends the editing of the previous one.
///
///     name.becomeFirstResponder()      // name.isEditing
///     email.becomeFirstResponder()     // name resigns (.editingDidEnd), email.isEditing
///     screen.view.endEditing(true)     // email resigns; nobody is first responder
extension View {
    /// Whether this view is the first responder of its hierarchy.
    public var isFirstResponder: Bool { root.firstResponderOfHierarchy === self }

    /// Makes this view the first responder of its hierarchy, resigning the previous one.
    ///
    /// - Returns: `true` when the view is first responder afterwards; `false` when it cannot
    ///   become one (see ``canBecomeFirstResponder``).
    @discardableResult
    public func becomeFirstResponder() -> Bool {
        if isFirstResponder { return true }
        guard canBecomeFirstResponder else { return false }
        let root = self.root
        root.firstResponderOfHierarchy?.resignFirstResponder()
        root.firstResponderOfHierarchy = self
        didBecomeFirstResponder()
        return true
    }

    /// Stops being the first responder, if it is.
    ///
    /// - Returns: `true` (a headless view never refuses to resign).
    @discardableResult
    public func resignFirstResponder() -> Bool {
        guard isFirstResponder else { return true }
        root.firstResponderOfHierarchy = nil
        didResignFirstResponder()
        return true
    }

    /// Resigns the first responder when it is this view or one of its descendants (UIKit's
    /// `endEditing(_:)`; a headless view never refuses, so `force` changes nothing).
    ///
    /// - Parameter force: Whether to force the first responder to resign.
    /// - Returns: `true` when a first responder under this view resigned.
    @discardableResult
    public func endEditing(_ force: Bool) -> Bool {
        guard let responder = root.firstResponderOfHierarchy, responder.isDescendant(of: self) else { return false }
        return responder.resignFirstResponder()
    }

    /// Whether this view is `view` or one of its descendants.
    ///
    /// - Parameter view: The possible ancestor.
    /// - Returns: `true` when `view` is this view or an ancestor of it.
    public func isDescendant(of view: View) -> Bool {
        var current: View? = self
        while let candidate = current {
            if candidate === view { return true }
            current = candidate.superview
        }
        return false
    }

    /// The topmost ancestor (the view itself when it has no superview).
    var root: View {
        var view = self
        while let parent = view.superview { view = parent }
        return view
    }

    /// Called on `addSubview`: a subtree that had its own first responder keeps it in its new
    /// hierarchy, unless that hierarchy already has one, in which case the subtree's resigns.
    func adoptFirstResponder(of subtree: View) {
        guard let responder = subtree.firstResponderOfHierarchy else { return }
        subtree.firstResponderOfHierarchy = nil
        let root = self.root
        if root.firstResponderOfHierarchy == nil {
            root.firstResponderOfHierarchy = responder
        } else {
            responder.didResignFirstResponder()
        }
    }

    /// Called before leaving the superview: a first responder inside this subtree resigns, as
    /// UIKit's does when its view leaves the window.
    func resignFirstResponderLeaving() {
        if let responder = root.firstResponderOfHierarchy, responder.isDescendant(of: self) {
            responder.resignFirstResponder()
        }
    }
}
