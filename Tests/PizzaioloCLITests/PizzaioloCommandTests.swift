import Foundation
import HeadlessUI
import ObjectStore
import Streams
import Testing
import TestSupport
import Pizzaiolo
@testable import PizzaioloCLI

/// `pizzaiolo --interactive`: commands drive the app, the screen follows each one, mistakes get
/// a helpful message, and a relaunch on the same file shows the persisted cart.
@MainActor @Suite(.resourceCheck) struct PizzaioloCommandTests {
    @Test func aSessionBrowsesFiltersBuildsEditsAndPays() throws {
        let shell = try PizzaioloShell(store: Store(configuration: memoryStore()), backend: .embedded())
        #expect(shell.execute("select 3").contains("Label \"Diavola\""))
        #expect(shell.execute("chip vegetarian").contains("Button [Vegetarian] (selected)"))
        #expect(shell.execute("add").contains("Button [Cart (1)]"))
        #expect(shell.execute("maker").contains("== Maker =="))
        #expect(shell.execute("add") == "Choose a topping first (topping mushrooms).")
        #expect(shell.execute("topping basil").contains("Price: $3.24"))
        _ = shell.execute("add")
        let cart = shell.execute("cart")
        #expect(cart.contains("2 pizzas: $"))
        #expect(shell.execute("+ 2").contains("Label \"×2\""))
        #expect(shell.execute("delete 1").contains("TableView 1 row"))
        #expect(shell.execute("- 7") == "There is no line 7 in the cart.")
        #expect(shell.execute("pay card").contains("Order Placed"))
        #expect(shell.execute("cart").contains("Your cart is empty"))
    }

    @Test func mistakesGetHelpfulMessages() throws {
        let shell = try PizzaioloShell(store: Store(configuration: memoryStore()), backend: .embedded())
        #expect(shell.execute("bake") == "Unknown command 'bake'. Type `help` for the list.")
        #expect(shell.execute("help").contains("chip NAME"))
        #expect(shell.execute("next") == "Open the Selector first (select 1).")
        #expect(shell.execute("card 9") == "There is no card 9. Cards: 1…3.")
        _ = shell.execute("select 1")
        #expect(shell.execute("chip Spicy").hasPrefix("No chip called 'Spicy'. Chips: Classic, Vegetarian"))
        #expect(shell.execute("offline maybe") == "Usage: offline on | offline off.")
        #expect(shell.execute("pay card") == "Nothing to pay: the cart is empty.")
        #expect(shell.execute("quit") == "Bye.")
        #expect(shell.isFinished)
    }

    @Test func offlineRetryAndRelaunchThroughTheCommandLine() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.url.appendingPathComponent("session.store").path
        var lines = ["select 1", "add", "offline on", "relaunch", "quit"][...]
        var output = ""
        let status = PizzaioloCommand.run(arguments: ["--interactive", "--store", path],
                                          input: { lines.popFirst() }, write: { output += $0 })
        #expect(status == 0)
        #expect(output.contains("Offline: showing the menu from your last visit"))
        #expect(output.contains("The network is off."))

        // A second session on the same file: the cart is still there.
        var again = ["cart"][...]
        var second = ""
        #expect(PizzaioloCommand.run(arguments: ["--interactive", "--store", path], input: { again.popFirst() }, write: { second += $0 }) == 0)
        #expect(second.contains("Label \"Margherita\""))
        #expect(second.contains("1 pizza: $8.99"))
    }

    @Test func theCommandLineRunsTheWalkthroughAndDocumentsItself() {
        var help = ""
        #expect(PizzaioloCommand.run(arguments: ["--help"], write: { help += $0 }) == 0)
        for word in ["--interactive", "--api", "--store", "tracks", "export-fixtures", "http.server"] {
            #expect(help.contains(word), "\(word)")
        }
        var wrong = ""
        #expect(PizzaioloCommand.run(arguments: ["--bogus"], write: { wrong += $0 }) == 64)
        #expect(wrong.contains("unknown argument '--bogus'"))
        var tracksArguments: [String] = []
        #expect(PizzaioloCommand.run(arguments: ["tracks", "--help"], tracks: { tracksArguments = $0; return 3 }) == 3)
        #expect(tracksArguments == ["--help"])
    }

    @Test func tracksUsesTheSameExitStatusForABadArgument() {
        #expect(runTracksCommand(arguments: ["--bogus"]) == 64)
        #expect(runTracksCommand(arguments: ["--api", "ftp://x"]) == 64)
    }
}

/// A fresh private in-memory store configuration for one test.
func memoryStore() -> Store.Configuration {
    .inMemory(identifier: "pizzaiolo-cli-test-\(UUID().uuidString)", objectTypes: PizzaioloApp.objectTypes)
}

/// A temporary folder, removed by `cleanUp()`.
struct TemporaryFolder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("PizzaioloCLITests-\(UUID().uuidString)", isDirectory: true)
    func cleanUp() { try? FileManager.default.removeItem(at: url) }
    init() { try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
}
