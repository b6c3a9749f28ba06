import Foundation
import HeadlessUI
import Streams

/// The Maker: topping buttons by section, the price, Add to cart once a topping is chosen.
public final class MakerScreen: PizzaioloScreen {
    /// The view model, made from the buttons' taps by the function the app gave.
    public private(set) lazy var viewModel = makeViewModel(MakerViewModel.Input(
        toggle: Observable.merge(toppingButtons.map { id, button in button.rx.tap.map { id } }),
        addToCart: addButton.rx.tap.asObservable()))
    private let makeViewModel: (MakerViewModel.Input) -> MakerViewModel
    /// The topping buttons, by id.
    public let toppingButtons: [String: Button]
    /// `Price: $4.74`.
    public let priceLabel = Label()
    /// The chosen toppings.
    public let summaryLabel = Label()
    /// Hidden while no topping is chosen.
    public let addButton = Button(title: "Add to cart")

    /// Creates the screen; `makeViewModel` (the app's) turns its taps into the view model.
    init(app: PizzaioloApp, viewModel makeViewModel: @escaping (MakerViewModel.Input) -> MakerViewModel) {
        var buttons: [String: Button] = [:]
        for topping in MakerViewModel.sections.flatMap(\.toppings) {
            buttons[topping.id] = Button(title: "\(topping.name) +\(dollars(topping.cents).format())")
        }
        toppingButtons = buttons
        self.makeViewModel = makeViewModel
        super.init(app: app, title: "Maker")
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        for section in MakerViewModel.sections {
            let group = View()
            group.accessibilityIdentifier = section.title
            for topping in section.toppings {
                guard let button = toppingButtons[topping.id] else { continue }
                viewModel.chosen.map { $0.contains(topping.id) }.drive(button.rx.isSelected).disposed(by: disposeBag)
                group.addSubview(button)
            }
            view.addSubview(group)
        }
        for view in [summaryLabel, priceLabel, addButton] as [View] { self.view.addSubview(view) }
        viewModel.price.drive(priceLabel.rx.text).disposed(by: disposeBag)
        viewModel.summary.drive(summaryLabel.rx.text).disposed(by: disposeBag)
        viewModel.canAdd.map(!).drive(addButton.rx.isHidden).disposed(by: disposeBag)
        showErrors(viewModel.addToCart)
    }
}
