/// How a flattening operator (`flatMap`, `merge`, `concatMap`, `flatMapLatest`, `switchLatest`,
/// `flatMapFirst`) can run an inner sequence without subscribing to it: for the library's
/// synchronous factories, what a subscription would send is known in advance, so the operator
/// delivers it itself, as an inner subscription that starts and ends at once, with no inner
/// sink, disposer or trampoline entry. The typed `combineLatest` and `zip` read it too, to take
/// a source that sends one element or none at once. Every other sequence says ``subscribe``.
///
/// Not generic, on purpose: the operators' code is not specialised for the element type, and a
/// generic enum returned there would cost a runtime type lookup per inner.
enum InnerShortcut {
    /// Subscribe to the sequence, as to any other.
    case subscribe
    /// The sequence is a ``Just`` (`just`, `from(optional:)` with a value): subscribing sends
    /// its element, ``Observable/shortcutElement``, and completes at once.
    case element
    /// The sequence is an ``EmptyProducer`` (`empty`, `from(optional: nil)`): subscribing
    /// completes at once.
    case completion
    /// Subscribing sends the elements one step at a time on the current thread's trampoline
    /// (`of` and `from` on their default scheduler): ``Observable/deliverSteps(in:next:rest:)``
    /// delivers them directly while no other work of the trampoline is due before a step.
    case steps
}

extension Observable {
    /// The element of a sequence whose ``innerShortcut`` is ``InnerShortcut/element``, which
    /// only a ``Just`` says: read from it directly, with no call to make.
    var shortcutElement: Element { unsafeDowncast(self, to: Just<Element>.self).element }
}
