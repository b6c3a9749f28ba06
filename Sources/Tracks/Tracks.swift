/// The Tracks sample: a search-results table whose artwork loads lazily into the right cells.
public enum Tracks {
    /// The name shown in the demo's title.
    public static let appName = "Tracks"
}
