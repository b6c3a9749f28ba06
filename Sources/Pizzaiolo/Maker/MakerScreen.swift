import Foundation
import HeadlessUI
import Streams

/// The Maker: topping buttons by section, the price, Add to cart once a topping is chosen.
public final class MakerScreen: PizzaioloScreen {
    /// The view model.
    public let viewModel: MakerViewModel
    /// The topping buttons, by id.
    public private(set) var toppingButtons: [String: Button] = [:]
    /// `Price: $4.74`.
    public let priceLabel = Label()
    /// The chosen toppings.
    public let summaryLabel = Label()
    /// Hidden while no topping is chosen.
    public let addButton = Button(title: "Add to cart")

    init(app: PizzaioloApp) {
        viewModel = MakerViewModel(cart: app.cart)
        super.init(app: app, title: "Maker")
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        let viewModel = self.viewModel
        for section in MakerViewModel.sections {
            let group = View()
            group.accessibilityIdentifier = section.title
            for topping in section.toppings {
                let button = Button(title: "\(topping.name) +\(dollars(topping.cents).format())")
                button.rx.tap.map { topping.id }.bind(to: viewModel.toggle).disposed(by: disposeBag)
                viewModel.chosen.map { $0.contains(topping.id) }.drive(button.rx.isSelected).disposed(by: disposeBag)
                toppingButtons[topping.id] = button
                group.addSubview(button)
            }
            view.addSubview(group)
        }
        for view in [summaryLabel, priceLabel, addButton] as [View] { self.view.addSubview(view) }
        viewModel.price.drive(priceLabel.rx.text).disposed(by: disposeBag)
        viewModel.summary.drive(summaryLabel.rx.text).disposed(by: disposeBag)
        viewModel.canAdd.map(!).drive(addButton.rx.isHidden).disposed(by: disposeBag)
        addButton.rx.tap.bind(to: viewModel.addToCart.inputs).disposed(by: disposeBag)
        showErrors(viewModel.error)
    }
}
