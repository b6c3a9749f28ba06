import Foundation
import HeadlessUI
import ObjectStore
import Pizzaiolo
import Repository
import Streams

/// The `pizzaiolo` command line, as a library function so tests can run it in process.
@MainActor
enum PizzaioloCommand {
    /// What `pizzaiolo --help` prints.
    public static let help = """
    pizzaiolo — the ReactiveMVVM sample app, headless

    usage:
      pizzaiolo                      a guided walkthrough: launch, browse, filter, build a pizza,
                                     edit the cart, pay, relaunch offline (a few seconds)
      pizzaiolo --interactive        drive the app yourself; type `help` at the prompt
      pizzaiolo tracks [--help]      the Tracks table: lazy images while scrolling
      pizzaiolo export-fixtures DIR  write the fixture API into DIR, for a real server:
                                       python3 -m http.server 8000 --directory DIR
      pizzaiolo --help               this text

    options:
      --api URL       talk to a real server (e.g. http://127.0.0.1:8000) instead of the
                      embedded one
      --store PATH    keep the app's data in this file, in a folder that exists (default:
                      in memory for the walkthrough; ~/.cache/ReactiveMVVM/pizzaiolo.store in
                      interactive mode)
      --reset         start from an empty store: forget the saved cart, menu and orders
    """

    /// Runs the command.
    ///
    /// - Parameters:
    ///   - arguments: The arguments, without the program name.
    ///   - input: Reads a line for the interactive mode (`nil` at the end of input).
    ///   - echo: Whether each line read is written after the prompt, so a transcript shows
    ///     the commands; by default, when the standard input is not a terminal (a script).
    ///   - write: Receives the output.
    ///   - tracks: Runs `pizzaiolo tracks …` with the arguments after `tracks`.
    /// - Returns: The exit status.
    public static func run(arguments: [String],
                           input: () -> String? = { readLine() },
                           echo: Bool = isatty(STDIN_FILENO) == 0,
                           write: (String) -> Void = { FileHandle.standardOutput.write(Data($0.utf8)) },
                           tracks: ([String]) -> Int32 = { _ in 0 }) -> Int32 {
        var arguments = arguments
        if arguments.first == "tracks" { return tracks(Array(arguments.dropFirst())) }
        if arguments.first == "export-fixtures" {
            guard arguments.count == 2 else {
                write("pizzaiolo: export-fixtures needs a folder\n")
                return 64
            }
            do {
                try PizzaioloAPI.export(to: URL(fileURLWithPath: arguments[1]))
                write("Wrote the Pizzaiolo API to \(arguments[1]). Serve it with:\n  python3 -m http.server 8000 --directory \(arguments[1])\nthen: swift run pizzaiolo --api http://127.0.0.1:8000\n")
                return 0
            } catch {
                write("pizzaiolo: \(error)\n")
                return 1
            }
        }
        var interactive = false
        var api: URL?
        var storePath: String?
        var reset = false
        while let argument = arguments.first {
            arguments.removeFirst()
            switch argument {
            case "--help", "-h":
                write(help + "\n")
                return 0
            case "--interactive", "-i":
                interactive = true
            case "--reset":
                reset = true
            case "--api":
                guard let value = arguments.first, let url = URL(string: value), url.scheme != nil else {
                    write("pizzaiolo: --api needs a URL such as http://127.0.0.1:8000\n")
                    return 64
                }
                api = url
                arguments.removeFirst()
            case "--store":
                guard let value = arguments.first else {
                    write("pizzaiolo: --store needs a file path\n")
                    return 64
                }
                storePath = value
                arguments.removeFirst()
            default:
                write("pizzaiolo: unknown argument '\(argument)'\n\n" + help + "\n")
                return 64
            }
        }
        let backend = api.map(Backend.server) ?? .embedded()
        if let storePath {
            // The store creates its file, not its folder: a mistyped path is an error, not a
            // new folder tree.
            let folder = URL(fileURLWithPath: storePath).deletingLastPathComponent().path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                write("pizzaiolo: --store \(storePath): the folder \(folder) does not exist (create it first)\n")
                return 66
            }
        }
        do {
            if interactive {
                let path = storePath.map { URL(fileURLWithPath: $0) } ?? defaultStoreURL()
                if storePath == nil {
                    try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
                }
                let store = try Store(configuration: .file(url: path, objectTypes: PizzaioloApp.objectTypes))
                if reset { try PizzaioloShell.erase(store) }
                let shell = try PizzaioloShell(store: store, backend: backend)
                write("Pizzaiolo (data in \(path.path)\(reset ? ", reset" : "")). Type `help` for the commands.\n")
                write(shell.app.render() + "\n")
                while true {
                    write("> ")
                    guard let line = input() else { break }
                    if echo { write(PizzaioloShell.abbreviated(line, limit: 200) + "\n") }
                    let output = shell.execute(line)
                    write(output + "\n")
                    if shell.isFinished { break }
                }
                return 0
            }
            let configuration: Store.Configuration = storePath.map {
                .file(url: URL(fileURLWithPath: $0), objectTypes: PizzaioloApp.objectTypes)
            } ?? .inMemory(identifier: "pizzaiolo-walkthrough", objectTypes: PizzaioloApp.objectTypes)
            if reset { try PizzaioloShell.erase(Store(configuration: configuration)) }
            try Walkthrough.run(backend: backend, storeConfiguration: configuration, write: write)
            return 0
        } catch {
            write("pizzaiolo: \(error)\n")
            return 1
        }
    }

    /// Where interactive sessions keep their data: the user's cache folder.
    static func defaultStoreURL() -> URL {
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return caches.appendingPathComponent("ReactiveMVVM/pizzaiolo.store")
    }
}

/// The interactive session: one command per line, the current screen after each.
@MainActor
final class PizzaioloShell {
    /// The running app.
    public private(set) var app: PizzaioloApp
    /// `true` after `quit`.
    public private(set) var isFinished = false
    private let store: Store
    private let backend: Backend

    /// The commands, for `help`.
    public static let commands = """
    home                 go to the Home screen
    card N               tap Home card N (1-based)
    select N             open the Selector at page N
    next | prev          change page
    chip NAME            toggle a category chip (e.g. chip Vegetarian)
    add                  add the current pizza (Selector) or custom pizza (Maker)
    maker                open the Maker
    topping NAME         toggle a topping in the Maker (e.g. topping mushrooms)
    cart                 open the cart
    + N | - N            one more / one fewer of cart line N
    delete N             swipe cart line N away
    pay                  open Payment
    pay card|wallet|cash pay the cart
    offline on|off       switch the network off or on
    retry                reload the menu
    relaunch             quit and start the app again on the same data
    reset                forget the saved cart, menu and orders, and start again
    back                 go back one screen
    help                 this list
    quit                 leave
    """

    /// Starts a session.
    ///
    /// - Parameters:
    ///   - store: The app's data.
    ///   - backend: The server side.
    /// - Throws: Store errors.
    public init(store: Store, backend: Backend) throws {
        self.store = store
        self.backend = backend
        app = try PizzaioloApp(store: store, backend: backend)
        backend.settle()
    }

    /// Runs one command line.
    ///
    /// - Parameter line: The command.
    /// - Returns: What to print: the screen after the command, or a message.
    public func execute(_ line: String) -> String {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let command = words.first?.lowercased() else { return app.render() }
        let rest = words.dropFirst().joined(separator: " ")
        let number = Int(rest)
        let shown = Self.abbreviated(rest, limit: 40)
        switch command {
        case "help", "?": return Self.commands
        case "quit", "exit", "q":
            isFinished = true
            return "Bye."
        case "home": app.home()
        case "card":
            app.home()
            guard let home = app.screen as? HomeScreen else { return "Home is not shown." }
            let count = Headless.run { home.table.numberOfRows(inSection: 0) }
            guard let number, number >= 1, number <= count else { return "There is no card \(shown). Cards: 1…\(count)." }
            Headless.run {
                let path = IndexPath(row: number - 1, section: 0)
                home.table.scrollToRow(at: path)
                _ = home.table.tapRow(at: path)
            }
        case "select":
            guard let number, number >= 1 else { return "Usage: select N (a page number, 1-based)." }
            if !(app.screen is SelectorScreen) { app.openSelector() }
            backend.settle()
            guard let selector = app.screen as? SelectorScreen else { return "Could not open the Selector." }
            let pages = Headless.run { Self.latest(selector.viewModel.pages)?.count ?? 0 }
            guard number <= pages else {
                switch pages {
                case 0: return "There is no page \(number): there are no pages yet."
                case 1: return "There is no page \(number): there is 1 page (select 1)."
                default: return "There is no page \(number): there are \(pages) pages (select 1…\(pages))."
                }
            }
            Headless.run { selector.select(page: number - 1) }
        case "next", "prev", "previous":
            guard let selector = app.screen as? SelectorScreen else { return "Open the Selector first (select 1)." }
            Headless.run { _ = (command == "next" ? selector.nextButton : selector.previousButton).tap() }
        case "chip":
            guard let selector = app.screen as? SelectorScreen else { return "Open the Selector first (select 1)." }
            guard let chip = selector.chips.first(where: { $0.title?.lowercased() == rest.lowercased() }) else {
                return "No chip called '\(shown)'. Chips: \(selector.chips.compactMap(\.title).joined(separator: ", "))."
            }
            Headless.run { _ = chip.tap() }
        case "add":
            if let selector = app.screen as? SelectorScreen {
                Headless.run { _ = selector.addButton.tap() }
            } else if let maker = app.screen as? MakerScreen {
                if maker.addButton.isHidden { return "Choose a topping first (topping mushrooms)." }
                Headless.run { _ = maker.addButton.tap() }
            } else {
                return "Add works on the Selector or the Maker."
            }
        case "maker": app.openMaker()
        case "topping":
            guard let maker = app.screen as? MakerScreen else { return "Open the Maker first (maker)." }
            guard let button = maker.toppingButtons[rest.lowercased()] else {
                return "No topping '\(shown)'. Toppings: \(maker.toppingButtons.keys.sorted().joined(separator: ", "))."
            }
            Headless.run { _ = button.tap() }
        case "cart": app.openCart()
        case "+", "-", "−", "delete":
            guard let cart = app.screen as? CartScreen else { return "Open the cart first (cart)." }
            guard let number, number >= 1, number <= cart.table.numberOfRows(inSection: 0) else {
                return "There is no line \(shown) in the cart."
            }
            let path = IndexPath(row: number - 1, section: 0)
            Headless.run {
                cart.table.scrollToRow(at: path)
                if command == "delete" {
                    _ = cart.table.swipeToDelete(rowAt: path)
                } else if let cell = cart.table.cellForRow(at: path) as? CartCell {
                    _ = (command == "+" ? cell.plusButton : cell.minusButton).tap()
                }
            }
        case "pay":
            if app.cart.items.isEmpty, !(app.screen is PaymentScreen) { return "Nothing to pay: the cart is empty." }
            if rest.isEmpty {
                if !(app.screen is PaymentScreen) { app.openPayment() }
            } else {
                if !(app.screen is PaymentScreen) { app.openPayment() }
                guard let payment = app.screen as? PaymentScreen else { return "Could not open Payment." }
                let buttons = ["card": payment.cardButton, "wallet": payment.walletButton, "cash": payment.cashButton]
                guard let button = buttons[rest.lowercased()] else { return "Pay with card, wallet or cash." }
                if !Headless.run({ button.tap() }) { return "Nothing to pay: the cart is empty." }
            }
        case "offline":
            guard rest == "on" || rest == "off" else { return "Usage: offline on | offline off." }
            backend.isOffline = rest == "on"
            return "The network is \(rest == "on" ? "off" : "on")."
        case "retry":
            app.home()
            app.reload()
        case "relaunch":
            do {
                app = try PizzaioloApp(store: store, backend: backend)
            } catch {
                return "Could not relaunch: \(error)"
            }
        case "reset":
            do {
                try Self.erase(store)
                app = try PizzaioloApp(store: store, backend: backend)
            } catch {
                return "Could not reset: \(error)"
            }
        case "back": app.back()
        default:
            return "Unknown command '\(Self.abbreviated(command, limit: 40))'. Type `help` for the list."
        }
        backend.settle()
        return app.render()
    }

    /// Empties `store`: the cart, the menu and the orders are forgotten.
    ///
    /// - Parameter store: The app's data.
    /// - Throws: The store's error.
    static func erase(_ store: Store) throws {
        try store.write { tx in try tx.deleteAll() }
    }

    /// `text`, or its first `limit` characters and how long it was, so a pasted page is not
    /// printed back whole.
    static func abbreviated(_ text: String, limit: Int) -> String {
        text.count <= limit ? text : "\(text.prefix(limit))… (\(text.count) characters)"
    }

    /// The value a driver holds now (it replays its latest to a new subscriber).
    static func latest<Element>(_ driver: Driver<Element>) -> Element? {
        var value: Element?
        driver.drive(onNext: { value = $0 }).dispose()
        return value
    }
}
