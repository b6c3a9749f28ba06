import Foundation
import Pizzaiolo

// The sample app's command-line front end: the walkthrough (no arguments), an interactive
// session, the Tracks demo, and exporting the fixture API for a real server.
let exitCode = PizzaioloCommand.run(arguments: Array(CommandLine.arguments.dropFirst()), tracks: runTracksCommand)
exit(exitCode)
