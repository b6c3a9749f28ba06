import Foundation
import HeadlessUI
import Streams

/// Payment: the total, three ways to pay merged into one tap stream, and the order's fate.
public final class PaymentScreen: PizzaioloScreen {
    /// The view model, made from the pay buttons' taps by the function the app gave.
    public private(set) lazy var viewModel = makeViewModel(PaymentViewModel.Input(pay: Observable.merge(
        cardButton.rx.tap.map { "card" },
        walletButton.rx.tap.map { "wallet" },
        cashButton.rx.tap.map { "cash" })))
    private let makeViewModel: (PaymentViewModel.Input) -> PaymentViewModel
    /// `Total: $26.97`.
    public let totalLabel = Label()
    /// Pay by card.
    public let cardButton = Button(title: "Card")
    /// Pay with a wallet.
    public let walletButton = Button(title: "Wallet")
    /// Pay cash on delivery.
    public let cashButton = Button(title: "Cash")
    /// `Order Placed`, or why it failed.
    public let statusLabel = Label()

    /// Creates the screen; `makeViewModel` (the app's) turns its taps into the view model.
    init(app: PizzaioloApp, viewModel makeViewModel: @escaping (PaymentViewModel.Input) -> PaymentViewModel) {
        self.makeViewModel = makeViewModel
        super.init(app: app, title: "Payment")
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        for view in [totalLabel, cardButton, walletButton, cashButton, statusLabel] as [View] { self.view.addSubview(view) }
        viewModel.total.drive(totalLabel.rx.text).disposed(by: disposeBag)
        viewModel.status.drive(statusLabel.rx.text).disposed(by: disposeBag)
        viewModel.status.map { $0 == nil }.drive(statusLabel.rx.isHidden).disposed(by: disposeBag)
        viewModel.canPay.drive(cardButton.rx.isEnabled, walletButton.rx.isEnabled, cashButton.rx.isEnabled).disposed(by: disposeBag)
        showErrors(viewModel.error)
    }
}
