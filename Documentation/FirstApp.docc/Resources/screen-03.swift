import HeadlessUI
import MVVM
import Streams

final class TodoListScreen: ViewController {
    let searchField = TextField()
    let newTodoField = TextField()
    let addButton = Button(title: "Add")
    let summaryLabel = Label()
    let errorLabel = Label()
    let tableView = TableView(height: 200, rowHeight: 40)
    private let makeViewModel: (Driver<String>) -> TodoListViewModel

    /// - Parameter viewModel: Builds the view model from the search field's text (the screen
    ///   owns the field; whoever shows the screen owns the store).
    init(viewModel: @escaping (Driver<String>) -> TodoListViewModel) {
        self.makeViewModel = viewModel
        super.init()
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        for view in [searchField, newTodoField, addButton, summaryLabel, errorLabel, tableView] as [View] {
            self.view.addSubview(view)
        }
        tableView.register(TableViewCell.self, forCellReuseIdentifier: "Todo")
        let dataSource = RxTableViewSectionedChangesetDataSource<SectionModel<String, TodoRow>>(configureCell: { _, table, indexPath, row in
            let cell = table.dequeueReusableCell(withIdentifier: "Todo", for: indexPath)
            cell.textLabel?.text = row.text
            return cell
        })

        let viewModel = makeViewModel(searchField.rx.text.orEmpty.asDriver())
        viewModel.sections.drive(tableView.rx.items(dataSource: dataSource)).disposed(by: disposeBag)
        viewModel.summary.drive(summaryLabel.rx.text).disposed(by: disposeBag)
        viewModel.errorMessage.drive(errorLabel.rx.text).disposed(by: disposeBag)
        addButton.rx.bind(to: viewModel.add) { [newTodoField] _ in newTodoField.text ?? "" }.disposed(by: disposeBag)
        tableView.rx.modelSelected(TodoRow.self).map(\.id).bind(to: viewModel.toggle.inputs).disposed(by: disposeBag)
    }
}
