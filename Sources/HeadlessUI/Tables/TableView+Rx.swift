import Foundation
import Streams

@MainActor
extension Reactive where Base: TableView {
    /// Binds a sequence of arrays to the table, one row per element, with a cell factory.
    ///
    ///     items.bind(to: tableView.rx.items) { table, row, pizza in
    ///         let cell = table.dequeueReusableCell(withIdentifier: "Cell", for: IndexPath(row: row, section: 0))
    ///         cell.textLabel?.text = pizza.name
    ///         return cell
    ///     }
    ///
    /// - Parameter source: The arrays to show.
    /// - Returns: A function taking the cell factory and returning the binding.
    public func items<Sequence: Swift.Sequence, Source: ObservableType>(_ source: Source)
        -> (_ cellFactory: @escaping (TableView, Int, Sequence.Element) -> TableViewCell) -> Disposable
        where Source.Element == Sequence {
        { cellFactory in
            let dataSource = RxTableViewReactiveArrayDataSource<Sequence.Element>(cellFactory: cellFactory)
            return self.items(dataSource: dataSource)(source.asObservable().map { Array($0) })
        }
    }

    /// Binds a sequence of arrays to the table, dequeuing cells of `cellType` registered
    /// under `cellIdentifier` and configuring each.
    ///
    ///     items.bind(to: tableView.rx.items(cellIdentifier: "Pizza", cellType: PizzaCell.self)) { row, pizza, cell in
    ///         cell.name.text = pizza.name
    ///     }
    ///
    /// - Parameters:
    ///   - cellIdentifier: The registered reuse identifier.
    ///   - cellType: The cell class.
    /// - Returns: A curried function taking the source, then the configuration.
    public func items<Sequence: Swift.Sequence, Cell: TableViewCell, Source: ObservableType>(cellIdentifier: String, cellType: Cell.Type = Cell.self)
        -> (_ source: Source) -> (_ configureCell: @escaping (Int, Sequence.Element, Cell) -> Void) -> Disposable
        where Source.Element == Sequence {
        { source in
            { configureCell in
                let dataSource = RxTableViewReactiveArrayDataSource<Sequence.Element> { tableView, row, element in
                    let indexPath = IndexPath(row: row, section: 0)
                    let dequeued = tableView.dequeueReusableCell(withIdentifier: cellIdentifier, for: indexPath)
                    guard let cell = dequeued as? Cell else {
                        HeadlessUIHooks.report("the cell for \(cellIdentifier) is a \(type(of: dequeued)), not a \(Cell.self)")
                        return dequeued
                    }
                    configureCell(row, element, cell)
                    return cell
                }
                return self.items(dataSource: dataSource)(source.asObservable().map { Array($0) })
            }
        }
    }

    /// Binds a sequence to the table through `dataSource`, which the binding retains and sets
    /// as the table's data source until disposed.
    ///
    /// - Parameter dataSource: Applies each element to the table.
    /// - Returns: A function taking the source and returning the binding.
    public func items<DataSource: RxTableViewDataSourceType & TableViewDataSource, Source: ObservableType>(dataSource: DataSource)
        -> (_ source: Source) -> Disposable
        where DataSource.Element == Source.Element {
        { source in
            let tableView = self.base
            let attach = Binder<Void>(tableView) { tableView, _ in
                tableView.retainedDataSource = dataSource
                tableView.dataSource = dataSource
            }
            attach.onNext(())
            let apply = Binder<Source.Element>(tableView) { tableView, element in
                if tableView.dataSource !== dataSource {
                    tableView.retainedDataSource = dataSource
                    tableView.dataSource = dataSource
                }
                dataSource.tableView(tableView, observedEvent: .next(element))
            }
            let subscription = source.subscribe { event in
                switch event {
                case .next, .error: apply.on(event)
                case .completed: break
                }
            }
            return Disposables.create {
                subscription.dispose()
                let detach = Binder<Void>(tableView) { tableView, _ in
                    if tableView.dataSource === dataSource {
                        tableView.dataSource = nil
                        tableView.retainedDataSource = nil
                    }
                }
                detach.onNext(())
            }
        }
    }

    /// Taps on rows: their index paths.
    public var itemSelected: ControlEvent<IndexPath> { ControlEvent(events: base.itemSelectedSubject) }
    /// Deselected rows.
    public var itemDeselected: ControlEvent<IndexPath> { ControlEvent(events: base.itemDeselectedSubject) }
    /// Rows deleted by a swipe.
    public var itemDeleted: ControlEvent<IndexPath> { ControlEvent(events: base.itemDeletedSubject) }
    /// Cells about to be shown.
    public var willDisplayCell: ControlEvent<(cell: TableViewCell, indexPath: IndexPath)> {
        ControlEvent(events: base.willDisplaySubject.map { (cell: $0.0 as! TableViewCell, indexPath: $0.1) })
    }
    /// Cells that left the viewport.
    public var didEndDisplayingCell: ControlEvent<(cell: TableViewCell, indexPath: IndexPath)> {
        ControlEvent(events: base.didEndDisplayingSubject.map { (cell: $0.0 as! TableViewCell, indexPath: $0.1) })
    }
    /// The scroll position, as RxCocoa's `contentOffset` gives it (a vertical `Double` here):
    /// the current offset on subscription, then each change; binding an offset scrolls there.
    ///
    ///     scroll(to: 44), scroll(to: 88):  0--44--88--     (subscribed at offset 0)
    public var contentOffset: ControlProperty<Double> {
        let list = base
        let values = Observable<Double>.deferred { [weak list] in
            guard let list else { return .empty() }
            return list.contentOffsetSubject.startWith(list.contentOffset)
        }
        return ControlProperty(values: values, valueSink: Binder(list) { $0.scroll(to: $1) })
    }

    /// Taps on rows: the models shown there, read from the bound data source.
    ///
    /// - Parameter modelType: The model type.
    /// - Returns: The selected models.
    public func modelSelected<T>(_ modelType: T.Type) -> ControlEvent<T> {
        ControlEvent(events: models(base.itemSelectedSubject, as: modelType))
    }

    /// Rows deleted by a swipe: the models that were shown there.
    ///
    /// - Parameter modelType: The model type.
    /// - Returns: The deleted models.
    public func modelDeleted<T>(_ modelType: T.Type) -> ControlEvent<T> {
        ControlEvent(events: models(base.itemDeletedSubject, as: modelType))
    }

    /// The model at `indexPath` in the bound data source.
    ///
    /// - Parameter indexPath: A row.
    /// - Returns: The model.
    /// - Throws: When no sectioned data source is bound or the row does not exist.
    public func model<T>(at indexPath: IndexPath) throws -> T {
        guard let dataSource = base.dataSource as? SectionedViewDataSourceType else { throw StreamsError.unknown }
        guard let model = try dataSource.model(at: indexPath) as? T else { throw StreamsError.unknown }
        return model
    }

    private func models<T>(_ indexPaths: Observable<IndexPath>, as: T.Type) -> Observable<T> {
        let tableView = base
        return Observable.create { [weak tableView] observer in
            indexPaths.subscribe { event in
                switch event {
                case .next(let indexPath):
                    guard let tableView else { return }
                    do {
                        let model: T = try tableView.rx.model(at: indexPath)
                        observer.onNext(model)
                    } catch {
                        HeadlessUIHooks.report("no model of type \(T.self) at \(indexPath.shortDescription): \(error)")
                    }
                case .error(let error): observer.onError(error)
                case .completed: observer.onCompleted()
                }
            }
        }
    }
}

/// The data source behind `rx.items(…)` with a cell factory: one section of elements.
@MainActor
final class RxTableViewReactiveArrayDataSource<Element>: TableViewDataSource, RxTableViewDataSourceType, SectionedViewDataSourceType {
    private var elements: [Element] = []
    private let cellFactory: (TableView, Int, Element) -> TableViewCell

    init(cellFactory: @escaping (TableView, Int, Element) -> TableViewCell) {
        self.cellFactory = cellFactory
    }

    func tableView(_ tableView: TableView, observedEvent: Event<[Element]>) {
        guard case .next(let elements) = observedEvent else { return }
        self.elements = elements
        tableView.reloadData()
    }

    func model(at indexPath: IndexPath) throws -> Any {
        guard indexPath[0] == 0, indexPath[1] >= 0, indexPath[1] < elements.count else { throw StreamsError.argumentOutOfRange }
        return elements[indexPath[1]]
    }

    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { elements.count }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        cellFactory(tableView, indexPath[1], elements[indexPath[1]])
    }

    func tableView(_ tableView: TableView, canEditRowAt indexPath: IndexPath) -> Bool { true }
}
