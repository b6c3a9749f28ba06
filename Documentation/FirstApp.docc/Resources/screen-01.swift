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
    }
}
