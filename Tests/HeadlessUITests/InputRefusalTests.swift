import HeadlessUI
import Streams
import TestSupport
import Testing

/// A refused tap says why: `inputRefusal` names the view that blocks it and the reason.
@MainActor @Suite(.resourceCheck) struct InputRefusalTests {
    @Test func aControlThatAcceptsInputHasNoRefusal() {
        let button = Button(title: "Order")
        #expect(button.inputRefusal == nil)
        #expect(button.tap())
    }

    @Test func disabled() {
        let button = Button(title: "Order")
        button.accessibilityIdentifier = "order"
        button.isEnabled = false
        #expect(!button.tap())
        #expect(button.inputRefusal == #"Button "order" is disabled"#)
        let toggle = Switch()
        toggle.isEnabled = false
        #expect(!toggle.toggle())
        #expect(toggle.inputRefusal == "Switch is disabled")
    }

    @Test func hiddenTransparentOrNotInteractiveAncestor() {
        let screen = View()
        screen.accessibilityIdentifier = "screen"
        let button = Button(title: "Order")
        screen.addSubview(button)
        screen.isHidden = true
        #expect(!button.tap())
        #expect(button.inputRefusal == #"View "screen", an ancestor, is hidden"#)
        screen.isHidden = false
        screen.alpha = 0
        #expect(button.inputRefusal == #"View "screen", an ancestor, is transparent (alpha 0.0)"#)
        screen.alpha = 1
        button.isUserInteractionEnabled = false
        #expect(!button.tap())
        #expect(button.inputRefusal == "Button has user interaction disabled")
        button.isUserInteractionEnabled = true
        #expect(button.tap())
    }
}
