import Foundation
import Tracks

/// `pizzaiolo tracks [--api URL] [--help]`: shows the Tracks table and scrolls it.
///
/// - Parameter arguments: The arguments after `tracks`.
/// - Returns: The process exit status.
func runTracksCommand(arguments: [String]) -> Int32 {
    let write: (String) -> Void = { FileHandle.standardOutput.write(Data($0.utf8)) }
    var server: URL?
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        switch argument {
        case "--help", "-h":
            write("""
            pizzaiolo tracks — a search-results table with lazily loaded artwork

            usage: pizzaiolo tracks [--api URL]
              --api URL   a server answering /search?term=… and the artwork URLs it returns
                          (default: the embedded API, 200 tracks, every 17th artwork missing)

            """)
            return 0
        case "--api":
            guard let value = rest.popFirst(), let url = URL(string: value), url.scheme != nil else {
                write("pizzaiolo tracks: --api needs a URL\n")
                return 64
            }
            server = url
        default:
            write("pizzaiolo tracks: unknown argument '\(argument)'; see pizzaiolo tracks --help\n")
            return 64
        }
    }
    TracksDemo.run(server: server, write: write)
    return 0
}
