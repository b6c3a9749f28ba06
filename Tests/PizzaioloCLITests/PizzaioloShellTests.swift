import Foundation
import HeadlessUI
import ObjectStore
import Streams
import Testing
import TestSupport
import Pizzaiolo
@testable import PizzaioloCLI

/// What a first session at the prompt tripped on: each case gets a clear answer.
@MainActor @Suite(.resourceCheck) struct PizzaioloShellTests {
    @Test func selectingAPageThatDoesNotExistSaysHowManyThereAre() throws {
        let shell = try PizzaioloShell(store: Store(configuration: memoryStore()), backend: .embedded())
        #expect(shell.execute("select 999") == "There is no page 999: there are 9 pages (select 1…9).")
        _ = shell.execute("chip seafood")
        #expect(shell.execute("select 4") == "There is no page 4: there is 1 page (select 1).")
        #expect(shell.execute("select 0") == "Usage: select N (a page number, 1-based).")
    }

    @Test func tabsAndRepeatedSpacesSeparateWordsLikeOneSpace() throws {
        let shell = try PizzaioloShell(store: Store(configuration: memoryStore()), backend: .embedded())
        #expect(shell.execute("select\t3").contains("Label \"Diavola\""))
        #expect(shell.execute("  chip \t Vegetarian ").contains("Button [Vegetarian] (selected)"))
        #expect(shell.execute("\t").contains("<Pizzaiolo > Pizzas>"))
    }

    @Test func aVeryLongLineIsNotPrintedBackWhole() throws {
        let shell = try PizzaioloShell(store: Store(configuration: memoryStore()), backend: .embedded())
        let line = String(repeating: "x", count: 20_000)
        let answer = shell.execute(line)
        #expect(answer == "Unknown command '\(String(repeating: "x", count: 40))… (20000 characters)'. Type `help` for the list.")
        _ = shell.execute("select 1")
        #expect(shell.execute("chip " + line).count < 300)
    }

    @Test func payingWithAnEmptyCartSaysWhyAndOpensNothing() throws {
        let shell = try PizzaioloShell(store: Store(configuration: memoryStore()), backend: .embedded())
        #expect(shell.execute("pay") == "Nothing to pay: the cart is empty.")
        #expect(!(shell.app.screen is PaymentScreen))
        _ = shell.execute("select 1")
        _ = shell.execute("add")
        #expect(shell.execute("pay").contains("Total: $8.99"))
    }

    @Test func goingToAScreenOnTheStackGoesBackToIt() throws {
        let shell = try PizzaioloShell(store: Store(configuration: memoryStore()), backend: .embedded())
        _ = shell.execute("select 1")
        _ = shell.execute("add")
        _ = shell.execute("pay")
        #expect(shell.execute("select 2").hasPrefix("<Pizzaiolo > Pizzas>"))
        #expect(shell.execute("cart").hasPrefix("<Pizzaiolo > Pizzas > Cart>"))
        #expect(shell.execute("pay").hasPrefix("<Pizzaiolo > Pizzas > Cart > Payment>"))
        #expect(shell.execute("cart").hasPrefix("<Pizzaiolo > Pizzas > Cart>"))
        #expect(shell.execute("maker").hasPrefix("<Pizzaiolo > Pizzas > Cart > Maker>"))
        #expect(shell.execute("select 1").hasPrefix("<Pizzaiolo > Pizzas>"))
    }

    @Test func resetForgetsTheSavedState() throws {
        let shell = try PizzaioloShell(store: Store(configuration: memoryStore()), backend: .embedded())
        _ = shell.execute("select 1")
        #expect(shell.execute("add").contains("Button [Cart (1)]"))
        let reset = shell.execute("reset")
        #expect(reset.hasPrefix("<Pizzaiolo>"))
        #expect(!reset.contains("Cart (1)"))
        #expect(shell.app.cart.items.isEmpty)
        #expect(shell.execute("help").contains("reset"))
    }

    @Test func aScriptedSessionShowsEachCommandAfterThePrompt() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        var lines = ["select 1", "quit"][...]
        var output = ""
        let path = folder.url.appendingPathComponent("s.store").path
        #expect(PizzaioloCommand.run(arguments: ["--interactive", "--store", path], input: { lines.popFirst() }, echo: true, write: { output += $0 }) == 0)
        #expect(output.contains("> select 1\n<Pizzaiolo > Pizzas>"))
        #expect(output.contains("> quit\nBye."))

        var typed = ["quit"][...]
        var quiet = ""
        #expect(PizzaioloCommand.run(arguments: ["--interactive", "--store", path], input: { typed.popFirst() }, echo: false, write: { quiet += $0 }) == 0)
        #expect(quiet.contains("> Bye."))
    }

    @Test func aStoreInAMissingFolderIsAnErrorAndNothingIsCreated() {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let missing = folder.url.appendingPathComponent("missing/dir")
        var output = ""
        let status = PizzaioloCommand.run(arguments: ["--interactive", "--store", missing.appendingPathComponent("x.store").path],
                                          input: { nil }, write: { output += $0 })
        #expect(status == 66)
        #expect(output == "pizzaiolo: --store \(missing.path)/x.store: the folder \(missing.path) does not exist (create it first)\n")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("missing").path))
    }

    @Test func theResetFlagStartsFromAnEmptyStore() {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.url.appendingPathComponent("s.store").path
        var first = ["select 1", "add", "quit"][...]
        #expect(PizzaioloCommand.run(arguments: ["--interactive", "--store", path], input: { first.popFirst() }, write: { _ in }) == 0)
        var kept = ""
        var look = ["cart", "quit"][...]
        #expect(PizzaioloCommand.run(arguments: ["--interactive", "--store", path], input: { look.popFirst() }, write: { kept += $0 }) == 0)
        #expect(kept.contains("1 pizza: $8.99"))
        var again = ["cart", "quit"][...]
        var output = ""
        #expect(PizzaioloCommand.run(arguments: ["--interactive", "--store", path, "--reset"], input: { again.popFirst() }, write: { output += $0 }) == 0)
        #expect(output.contains("Your cart is empty"))
        var help = ""
        _ = PizzaioloCommand.run(arguments: ["--help"], write: { help += $0 })
        #expect(help.contains("--reset"))
    }
}
