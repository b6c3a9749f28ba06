import Tracks

/// `pizzaiolo tracks [options]`: shows the Tracks table and scrolls it (being built; see issue 6).
///
/// - Parameter arguments: The arguments after `tracks`.
/// - Returns: The process exit status.
func runTracksCommand(arguments: [String]) -> Int32 {
    print("\(Tracks.appName): coming.")
    return 0
}
