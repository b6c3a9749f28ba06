import Foundation
import Streams

/// A collection data source that receives its data from a sequence (RxCocoa's
/// `RxCollectionViewDataSourceType`).
@MainActor
public protocol RxCollectionViewDataSourceType {
    /// The type of the data.
    associatedtype Element

    /// Applies an event of the data sequence to `collectionView`.
    ///
    /// - Parameters:
    ///   - collectionView: The collection view bound.
    ///   - observedEvent: The new data.
    func collectionView(_ collectionView: CollectionView, observedEvent: Event<Element>)
}

@MainActor
extension Reactive where Base: CollectionView {
    /// Binds a sequence of arrays to the collection view with a cell factory.
    ///
    /// - Parameter source: The arrays to show.
    /// - Returns: A function taking the cell factory and returning the binding.
    public func items<Sequence: Swift.Sequence, Source: ObservableType>(_ source: Source)
        -> (_ cellFactory: @escaping (CollectionView, Int, Sequence.Element) -> CollectionViewCell) -> Disposable
        where Source.Element == Sequence {
        { cellFactory in
            let dataSource = RxCollectionViewReactiveArrayDataSource<Sequence.Element>(cellFactory: cellFactory)
            return self.items(dataSource: dataSource)(source.asObservable().map { Array($0) })
        }
    }

    /// Binds a sequence of arrays to the collection view, dequeuing cells of `cellType`.
    ///
    ///     pizzas.bind(to: collectionView.rx.items(cellIdentifier: "Pizza", cellType: PizzaTile.self)) { item, pizza, cell in … }
    ///
    /// - Parameters:
    ///   - cellIdentifier: The registered reuse identifier.
    ///   - cellType: The cell class.
    /// - Returns: A curried function taking the source, then the configuration.
    public func items<Sequence: Swift.Sequence, Cell: CollectionViewCell, Source: ObservableType>(cellIdentifier: String, cellType: Cell.Type = Cell.self)
        -> (_ source: Source) -> (_ configureCell: @escaping (Int, Sequence.Element, Cell) -> Void) -> Disposable
        where Source.Element == Sequence {
        { source in
            { configureCell in
                let dataSource = RxCollectionViewReactiveArrayDataSource<Sequence.Element> { collectionView, item, element in
                    let dequeued = collectionView.dequeueReusableCell(withReuseIdentifier: cellIdentifier, for: IndexPath(item: item, section: 0))
                    guard let cell = dequeued as? Cell else {
                        HeadlessUIHooks.report("the cell for \(cellIdentifier) is a \(type(of: dequeued)), not a \(Cell.self)")
                        return dequeued
                    }
                    configureCell(item, element, cell)
                    return cell
                }
                return self.items(dataSource: dataSource)(source.asObservable().map { Array($0) })
            }
        }
    }

    /// Binds a sequence to the collection view through `dataSource`, retained by the binding.
    ///
    /// - Parameter dataSource: Applies each element.
    /// - Returns: A function taking the source and returning the binding.
    public func items<DataSource: RxCollectionViewDataSourceType & CollectionViewDataSource, Source: ObservableType>(dataSource: DataSource)
        -> (_ source: Source) -> Disposable
        where DataSource.Element == Source.Element {
        { source in
            let collectionView = self.base
            let apply = Binder<Source.Element>(collectionView) { collectionView, element in
                if collectionView.dataSource !== dataSource {
                    collectionView.retainedDataSource = dataSource
                    collectionView.dataSource = dataSource
                }
                dataSource.collectionView(collectionView, observedEvent: .next(element))
            }
            let subscription = source.subscribe { event in
                if case .completed = event { return }
                apply.on(event)
            }
            return Disposables.create {
                subscription.dispose()
                Binder<Void>(collectionView) { collectionView, _ in
                    if collectionView.dataSource === dataSource {
                        collectionView.dataSource = nil
                        collectionView.retainedDataSource = nil
                    }
                }.onNext(())
            }
        }
    }

    /// Taps on items.
    public var itemSelected: ControlEvent<IndexPath> { ControlEvent(events: base.itemSelectedSubject) }
    /// Deselected items.
    public var itemDeselected: ControlEvent<IndexPath> { ControlEvent(events: base.itemDeselectedSubject) }

    /// Taps on items: the models shown there.
    ///
    /// - Parameter modelType: The model type.
    /// - Returns: The selected models.
    public func modelSelected<T>(_ modelType: T.Type) -> ControlEvent<T> {
        let collectionView = base
        let selections = base.itemSelectedSubject
        return ControlEvent(events: Observable<T>.create { [weak collectionView] observer in
            selections.subscribe { event in
                switch event {
                case .next(let indexPath):
                    guard let collectionView else { return }
                    do {
                        let model: T = try collectionView.rx.model(at: indexPath)
                        observer.onNext(model)
                    } catch {
                        HeadlessUIHooks.report("no model of type \(T.self) at \(indexPath.shortDescription): \(error)")
                    }
                case .error(let error): observer.onError(error)
                case .completed: observer.onCompleted()
                }
            }
        })
    }

    /// The model at `indexPath` in the bound data source.
    ///
    /// - Parameter indexPath: An item.
    /// - Returns: The model.
    /// - Throws: When no sectioned data source is bound or the item does not exist.
    public func model<T>(at indexPath: IndexPath) throws -> T {
        guard let dataSource = base.dataSource as? SectionedViewDataSourceType else { throw StreamsError.unknown }
        guard let model = try dataSource.model(at: indexPath) as? T else { throw StreamsError.unknown }
        return model
    }
}

/// The data source behind `collectionView.rx.items(…)`: one section of elements.
@MainActor
final class RxCollectionViewReactiveArrayDataSource<Element>: CollectionViewDataSource, RxCollectionViewDataSourceType, SectionedViewDataSourceType {
    private var elements: [Element] = []
    private let cellFactory: (CollectionView, Int, Element) -> CollectionViewCell

    init(cellFactory: @escaping (CollectionView, Int, Element) -> CollectionViewCell) {
        self.cellFactory = cellFactory
    }

    func collectionView(_ collectionView: CollectionView, observedEvent: Event<[Element]>) {
        guard case .next(let elements) = observedEvent else { return }
        self.elements = elements
        collectionView.reloadData()
    }

    func model(at indexPath: IndexPath) throws -> Any {
        guard indexPath[0] == 0, indexPath[1] >= 0, indexPath[1] < elements.count else { throw StreamsError.argumentOutOfRange }
        return elements[indexPath[1]]
    }

    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { elements.count }

    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        cellFactory(collectionView, indexPath[1], elements[indexPath[1]])
    }
}

/// A collection data source over sections, configured with a closure
/// (RxDataSources' `CollectionViewSectionedDataSource`).
@MainActor
open class CollectionViewSectionedDataSource<Section: SectionModelType>: CollectionViewDataSource, SectionedViewDataSourceType {
    /// Makes the cell for an item.
    public typealias ConfigureCell = (CollectionViewSectionedDataSource<Section>, CollectionView, IndexPath, Section.Item) -> CollectionViewCell

    /// Makes the cell for an item.
    public var configureCell: ConfigureCell
    /// The sections shown.
    public private(set) var sectionModels: [Section] = []

    /// Creates a data source.
    ///
    /// - Parameter configureCell: Makes the cell for an item.
    public init(configureCell: @escaping ConfigureCell) {
        self.configureCell = configureCell
    }

    /// Replaces the sections without telling any view.
    ///
    /// - Parameter sections: The new sections.
    open func setSections(_ sections: [Section]) { sectionModels = sections }

    /// The item at `indexPath`.
    public subscript(indexPath: IndexPath) -> Section.Item { sectionModels[indexPath[0]].items[indexPath[1]] }

    /// The item at `indexPath`, as `Any`.
    public func model(at indexPath: IndexPath) throws -> Any {
        guard indexPath.count == 2, indexPath[0] < sectionModels.count, indexPath[1] >= 0, indexPath[1] < sectionModels[indexPath[0]].items.count else {
            throw StreamsError.argumentOutOfRange
        }
        return self[indexPath]
    }

    /// The number of sections.
    public func numberOfSections(in collectionView: CollectionView) -> Int { sectionModels.count }
    /// The number of items in `section`.
    public func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        section < sectionModels.count ? sectionModels[section].items.count : 0
    }
    /// The cell from ``configureCell``.
    public func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        configureCell(self, collectionView, indexPath, self[indexPath])
    }
}

/// Reloads the collection view for each new list of sections.
@MainActor
open class RxCollectionViewSectionedReloadDataSource<Section: SectionModelType>: CollectionViewSectionedDataSource<Section>, RxCollectionViewDataSourceType {
    /// Sets the sections and reloads.
    public func collectionView(_ collectionView: CollectionView, observedEvent: Event<[Section]>) {
        guard case .next(let sections) = observedEvent else { return }
        setSections(sections)
        collectionView.reloadData()
    }
}

/// Applies each new list of sections to the collection view as the diff's staged changesets,
/// one batch each, in order; the first list reloads.
@MainActor
open class RxCollectionViewSectionedAnimatedDataSource<Section: AnimatableSectionModelType>: CollectionViewSectionedDataSource<Section>, RxCollectionViewDataSourceType {
    private var dataSet = false

    /// Applies the difference, one batch per stage.
    public func collectionView(_ collectionView: CollectionView, observedEvent: Event<[Section]>) {
        guard case .next(let newSections) = observedEvent else { return }
        let oldSections = sectionModels
        setSections(newSections)
        guard dataSet else {
            dataSet = true
            collectionView.reloadData()
            return
        }
        do {
            // One batch per stage, each against the sections it leads to.
            for changes in try Diff.differencesForSectionedView(initialSections: oldSections, finalSections: newSections) {
                setSections(changes.finalSections)
                let batch = changes.batchUpdate
                try collectionView.performBatchUpdates({
                    collectionView.deleteSections(batch.deletedSections)
                    collectionView.insertSections(batch.insertedSections)
                    for move in batch.movedSections { collectionView.moveSection(move.from, toSection: move.to) }
                    collectionView.deleteItems(at: batch.deletedRows)
                    collectionView.insertItems(at: batch.insertedRows)
                    collectionView.reloadItems(at: batch.reloadedRows)
                    for move in batch.movedRows { collectionView.moveItem(at: move.from, to: move.to) }
                })
            }
            setSections(newSections)
        } catch {
            HeadlessUIHooks.report("\(error)")
            setSections(newSections)
            collectionView.reloadData()
        }
    }
}
