import Foundation
import HeadlessUI
import Streams
import TestSupport
import Testing

@MainActor @Suite(.resourceCheck) struct ReactiveExtensionTests {
    @Test func imageViewAndButtonImagesBind() {
        let imageView = ImageView()
        let button = Button(title: "Share")
        let pepperoni = Image(width: 64, height: 64, color: .init(r: 200, g: 0, b: 0), name: "pepperoni")
        Headless.run {
            imageView.rx.image.onNext(pepperoni)
            button.rx.image.onNext(pepperoni)
        }
        #expect(imageView.render() == "ImageView [image pepperoni 64×64]")
        #expect(button.render() == "Button [Share] [image pepperoni 64×64]")
        Headless.run { imageView.rx.image.onNext(nil) }
        #expect(imageView.render() == "ImageView (empty)")
    }

    @Test func textFieldPlaceholderAndSecureText() {
        let field = TextField(placeholder: "Password")
        field.isSecureTextEntry = true
        Headless.run { field.rx.placeholder.onNext("PIN") }
        #expect(field.render() == "TextField (PIN)")
        field.type("1234")
        #expect(field.render() == "TextField \"••••\" (editing)")
    }

    @Test func tableDisplayAndScrollEvents() {
        let table = TableView(height: 88, rowHeight: 44)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        let dataSource = StringsDataSource([(0..<10).map { "row \($0)" }])
        var shown: [Int] = [], ended: [Int] = [], offsets: [Double] = []
        let bag = DisposeBag()
        table.rx.willDisplayCell.subscribe(onNext: { shown.append($0.indexPath.row) }).disposed(by: bag)
        table.rx.didEndDisplayingCell.subscribe(onNext: { ended.append($0.indexPath.row) }).disposed(by: bag)
        table.rx.contentOffset.subscribe(onNext: { offsets.append($0) }).disposed(by: bag)
        table.dataSource = dataSource
        table.scroll(to: 44)
        #expect(shown == [0, 1, 2])
        #expect(ended == [0])
        #expect(offsets == [0, 44])             // the current offset first, as RxCocoa's
        Headless.run { Observable.just(88.0).bind(to: table.rx.contentOffset).disposed(by: bag) }
        #expect(table.contentOffset == 88 && offsets == [0, 44, 88])
        #expect(shown == [0, 1, 2, 3])          // each row once, as it comes into view
    }

    @Test func collectionViewDelegateAPI() {
        final class Source: CollectionViewDataSource, CollectionViewDelegate {
            var selected: [IndexPath] = []
            func numberOfSections(in collectionView: CollectionView) -> Int { 2 }
            func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { section == 0 ? 3 : 2 }
            func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
                let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "Tile", for: indexPath) as! Tile
                cell.title.text = "\(indexPath.section)-\(indexPath.item)"
                return cell
            }
            func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: IndexPath) { selected.append(indexPath) }
        }
        let collection = CollectionView(height: 50, itemsPerRow: 2, itemHeight: 50)
        collection.register(Tile.self, forCellWithReuseIdentifier: "Tile")
        let source = Source()
        collection.dataSource = source
        collection.delegate = source
        // Section 0 takes two lines (3 items), section 1 starts a new line.
        #expect(collection.contentHeight == 150)
        #expect(collection.visibleCells.map { ($0 as? Tile)?.title.text } == ["0-0", "0-1"])
        collection.scroll(to: 100)
        #expect(collection.visibleCells.map { ($0 as? Tile)?.title.text } == ["1-0", "1-1"])
        collection.tapItem(at: IndexPath(item: 1, section: 1))
        #expect(source.selected == [IndexPath(item: 1, section: 1)])
        #expect(collection.render() == """
        CollectionView 2 per row, 5 items in 2 sections, offset 100
          Tile [1,0]
            Label "1-0"
          Tile [1,1] (selected)
            Label "1-1"
        """)
    }

    @Test func dismissingAModalScreenReleasesItsBindings() {
        final class Editor: ViewController {
            let name: Variable<String>
            let field = TextField()
            init(name: Variable<String>) {
                self.name = name
                super.init()
                title = "Edit"
            }
            override func viewDidLoad() {
                view.addSubview(field)
                name.asObservable().bind(to: field.rx.text).disposed(by: disposeBag)
                field.rx.text.orEmpty.changed.bind(to: name).disposed(by: disposeBag)
            }
        }
        let baseline = Resources.total
        let home = ViewController()
        let name = Variable("Margherita")
        weak var weakEditor: Editor?
        Headless.run {
            let editor = Editor(name: name)
            weakEditor = editor
            home.present(editor)
        }
        #expect(Resources.total > baseline)
        Headless.run { weakEditor?.field.type("!") }
        #expect(name.value == "Margherita!")
        Headless.run { home.dismiss() }
        #expect(weakEditor == nil)
        #expect(Resources.total == baseline)
    }
}
