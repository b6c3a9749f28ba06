/// The Pizzaiolo sample app, rebuilt headless on Streams, ObjectStore, Repository and HeadlessUI.
///
/// Its screens (Home, Selector, Maker, Cart, Payment) are view models over repositories, shown by
/// headless views that render to text.
public enum Pizzaiolo {
    /// The name shown in the walkthrough's title.
    public static let appName = "Pizzaiolo"
}
