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
    /// Subscribing sends one element, ``Observable/shortcutElement``, and completes at once,
    /// without a scheduler (`just`, `from(optional:)` with a value).
    case element
    /// Subscribing completes at once, without a scheduler (`empty`, `from(optional: nil)`).
    case completion
    /// Subscribing sends the elements one step at a time on the current thread's trampoline
    /// (`of` and `from` on their default scheduler): ``Observable/deliverSteps(in:next:rest:)``
    /// delivers them directly while no other work of the trampoline is due before a step.
    case steps
}
