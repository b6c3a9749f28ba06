import Foundation
import HeadlessUI
import Repository
import Streams

/// The Pizzaiolo API the app talks to by default: our own fixtures, answered in process.
///
/// Endpoints: `GET /categories`, `/pizza`, `/pizza/<id>` (404 when unknown), `/featured`,
/// `/photos/pizza/<file>`, `/photos/featured/<file>`, and `POST /orders`. ``files()`` lays the
/// same data out as a folder that `python3 -m http.server --directory <folder>` can serve
/// (`/pizza` is the folder `pizza/` with the list in its `index.html`).
public enum PizzaioloAPI {
    /// The address of the embedded API (never resolved: the fixture network answers it).
    public static let embeddedBaseURL = URL(string: "http://pizzaiolo.local")!

    /// The five categories.
    public static let categories: [(id: Int, name: String)] = [
        (1, "Classic"), (2, "Vegetarian"), (3, "Seafood"), (4, "White"), (5, "Exotic"),
    ]

    /// The nine pizzas: id, name, summary, categories, price in cents, colour of the photo.
    static let pizzas: [(id: Int, name: String, summary: String, categories: [Int], price: Int, color: Image.Pixel)] = [
        (1, "Margherita", "Tomato, mozzarella, basil", [1, 2], 899, .init(r: 220, g: 40, b: 30)),
        (2, "Marinara", "Tomato, garlic, oregano", [1, 2], 799, .init(r: 200, g: 60, b: 40)),
        (3, "Diavola", "Tomato, mozzarella, spicy salami", [1], 1099, .init(r: 180, g: 20, b: 20)),
        (4, "Capricciosa", "Ham, mushrooms, artichokes, olives", [1], 1199, .init(r: 160, g: 110, b: 60)),
        (5, "Quattro Formaggi", "Mozzarella, gorgonzola, fontina, parmesan", [2, 4], 1149, .init(r: 240, g: 220, b: 150)),
        (6, "Ortolana", "Grilled courgette, aubergine, peppers", [2], 1049, .init(r: 90, g: 160, b: 60)),
        (7, "Frutti di Mare", "Prawns, mussels, clams, parsley", [3], 1399, .init(r: 230, g: 120, b: 80)),
        (8, "Bianca al Tartufo", "Cream, mushrooms, truffle oil", [4, 5], 1499, .init(r: 235, g: 230, b: 210)),
        (9, "Hawaiian", "Ham and pineapple, for the brave", [5], 999, .init(r: 250, g: 200, b: 60)),
    ]

    /// The three Home cards: some with prices, one without (it opens the Maker).
    static let featured: [(id: Int, title: String, subtitle: String, priceWas: Int?, price: Int?, position: Int)] = [
        (1, "Margherita", "The queen of pizzas, this week only", 999, 899, 1),
        (2, "Build your own", "Pick every topping yourself", nil, nil, 2),
        (3, "Frutti di Mare", "Fresh from the coast", nil, 1399, 3),
    ]

    static func photoName(_ name: String) -> String {
        name.lowercased().replacingOccurrences(of: " ", with: "-") + ".png"
    }

    /// `GET /categories`.
    public static var categoriesJSON: String {
        "[" + categories.map { #"{"id": \#($0.id), "name": "\#($0.name)"}"# }.joined(separator: ", ") + "]"
    }

    static func pizzaJSON(_ pizza: (id: Int, name: String, summary: String, categories: [Int], price: Int, color: Image.Pixel)) -> String {
        let ids = pizza.categories.map(String.init).joined(separator: ", ")
        return #"{"id": \#(pizza.id), "name": "\#(pizza.name)", "summary": "\#(pizza.summary)", "category": [\#(ids)], "price": \#(pizza.price), "photo": "\#(photoName(pizza.name))"}"#
    }

    /// `GET /pizza`.
    public static var pizzaListJSON: String {
        "[" + pizzas.map(pizzaJSON).joined(separator: ", ") + "]"
    }

    /// `GET /featured`.
    public static var featuredJSON: String {
        "[" + featured.map { card in
            var fields = [#""id": \#(card.id)"#, #""title": "\#(card.title)""#, #""subtitle": "\#(card.subtitle)""#]
            if let was = card.priceWas { fields.append(#""price_was": \#(was)"#) }
            if let price = card.price { fields.append(#""price": \#(price)"#) }
            fields.append(#""photo": "\#(photoName(card.title))""#)
            fields.append(#""position": \#(card.position)"#)
            return "{" + fields.joined(separator: ", ") + "}"
        }.joined(separator: ", ") + "]"
    }

    /// `POST /orders`: the fixture kitchen confirms every order.
    public static let orderConfirmationJSON = #"{"status": "confirmed"}"#

    /// Every file of the API, by path (no leading slash), as a server folder holds them.
    ///
    /// - Returns: Paths and bodies; `pizza/index.html` is the list behind `/pizza`.
    public static func files() -> [(path: String, body: Data)] {
        var files: [(String, Data)] = [
            ("categories", Data(categoriesJSON.utf8)),
            ("featured", Data(featuredJSON.utf8)),
            ("pizza/index.html", Data(pizzaListJSON.utf8)),
            ("orders", Data(orderConfirmationJSON.utf8)),
        ]
        for pizza in pizzas {
            files.append(("pizza/\(pizza.id)", Data(pizzaJSON(pizza).utf8)))
            files.append(("photos/pizza/\(photoName(pizza.name))", photo(pizza.color)))
        }
        for (index, card) in featured.enumerated() {
            files.append(("photos/featured/\(photoName(card.title))", photo(.init(r: UInt8(60 + 60 * index), g: 90, b: 200))))
        }
        return files
    }

    /// A small generated photo: 16×16 of one colour with a lighter crust.
    static func photo(_ color: Image.Pixel) -> Data {
        var pixels: [UInt8] = []
        for y in 0..<16 {
            for x in 0..<16 {
                let edge = x == 0 || y == 0 || x == 15 || y == 15
                let pixel = edge ? Image.Pixel(r: 240, g: 200, b: 140) : color
                pixels += [pixel.r, pixel.g, pixel.b, pixel.a]
            }
        }
        // The pixel count always matches the size, so this cannot fail.
        return (try? Image(width: 16, height: 16, pixels: pixels))?.pngData() ?? Data()
    }

    /// The routes of a ``FixtureNetwork`` serving the API, each answering after `latency`.
    ///
    /// - Parameter latency: How long every answer takes.
    /// - Returns: Routes by path.
    public static func routes(latency: RxTimeInterval) -> [String: FixtureNetwork.Route] {
        var routes: [String: FixtureNetwork.Route] = [:]
        for (path, body) in files() {
            let route = path == "pizza/index.html" ? "/pizza" : "/" + path
            routes[route] = .data(body, delay: latency)
        }
        return routes
    }

    /// Writes ``files()`` into `folder`, ready for `python3 -m http.server --directory folder`.
    ///
    /// - Parameter folder: Created when missing.
    /// - Throws: File-system errors.
    public static func export(to folder: URL) throws {
        for (path, body) in files() {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try body.write(to: url)
        }
    }
}
