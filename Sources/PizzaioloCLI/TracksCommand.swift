import Foundation
import Tracks

/// The usage text of `pizzaiolo tracks`.
let tracksUsage = """
Usage: pizzaiolo tracks [--api http://HOST:PORT] [--help]

Shows the Tracks table (200 search results whose artwork loads lazily into reusable cells),
scrolls it, and prints the rendered table at each step, then how many cells and image
requests it took.

Options:
  --api URL   Search a real server instead of the embedded fixture API: GET URL/search?term=…
              answering {"results": [{"trackName", "artistName", "shortDescription",
              "artworkUrl60"}, …]}, with artwork URLs answering PNG images.
  --help, -h  Shows this text.
"""

/// `pizzaiolo tracks [options]`: shows the Tracks table and scrolls it.
///
/// - Parameter arguments: The arguments after `tracks`.
/// - Returns: The process exit status: 0 on success, 1 when the search failed, 64 (EX_USAGE) for bad
///   arguments.
@MainActor
func runTracksCommand(arguments: [String]) -> Int32 {
    var api: URL?
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
        switch argument {
        case "--help", "-h":
            print(tracksUsage)
            return 0
        case "--api":
            guard let value = remaining.popFirst(), let url = URL(string: value), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                FileHandle.standardError.write(Data("pizzaiolo tracks: --api needs an http(s) URL such as http://127.0.0.1:8080\n\n\(tracksUsage)\n".utf8))
                return 64
            }
            api = url
        default:
            FileHandle.standardError.write(Data("pizzaiolo tracks: unknown argument \(argument)\n\n\(tracksUsage)\n".utf8))
            return 64
        }
    }
    let summary = TracksDemo.run(api: api) { print($0) }
    return summary.succeeded ? 0 : 1
}
