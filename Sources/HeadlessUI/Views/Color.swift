/// A colour for text and views (UIKit's `UIColor`): red, green, blue and alpha from 0 to 1.
///
/// Views render a colour by its name when it is one of the named colours, otherwise as
/// `rgba(r,g,b,a)` with components from 0 to 255.
///
///     label.textColor = .red
///     label.textColor = Color(red: 138 / 255, green: 221 / 255, blue: 109 / 255, alpha: 1)
public struct Color: Sendable, Hashable, CustomStringConvertible {
    /// Red, from 0 to 1.
    public var red: Double
    /// Green, from 0 to 1.
    public var green: Double
    /// Blue, from 0 to 1.
    public var blue: Double
    /// Alpha, from 0 (transparent) to 1 (opaque).
    public var alpha: Double

    /// Creates a colour; components outside 0…1 are clamped.
    ///
    /// - Parameters:
    ///   - red: Red, from 0 to 1.
    ///   - green: Green, from 0 to 1.
    ///   - blue: Blue, from 0 to 1.
    ///   - alpha: Alpha, from 0 to 1.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = Self.clamp(red)
        self.green = Self.clamp(green)
        self.blue = Self.clamp(blue)
        self.alpha = Self.clamp(alpha)
    }

    /// Creates a grey (UIKit's `init(white:alpha:)`).
    ///
    /// - Parameters:
    ///   - white: The brightness, from 0 (black) to 1 (white).
    ///   - alpha: Alpha, from 0 to 1.
    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// Opaque black.
    public static let black = Color(white: 0)
    /// Opaque white.
    public static let white = Color(white: 1)
    /// Opaque 50 % grey.
    public static let gray = Color(white: 0.5)
    /// Opaque red.
    public static let red = Color(red: 1, green: 0, blue: 0)
    /// Opaque green.
    public static let green = Color(red: 0, green: 1, blue: 0)
    /// Opaque blue.
    public static let blue = Color(red: 0, green: 0, blue: 1)
    /// Fully transparent.
    public static let clear = Color(white: 0, alpha: 0)

    /// The colour's name (`red`, `black`…) when it is a named colour, otherwise
    /// `rgba(r,g,b,a)` with components from 0 to 255.
    public var description: String {
        for (name, color) in Self.named where color == self { return name }
        func byte(_ value: Double) -> Int { Int((value * 255).rounded()) }
        return "rgba(\(byte(red)),\(byte(green)),\(byte(blue)),\(byte(alpha)))"
    }

    private static let named: [(String, Color)] = [
        ("black", .black), ("white", .white), ("gray", .gray), ("red", .red),
        ("green", .green), ("blue", .blue), ("clear", .clear),
    ]

    private static func clamp(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(value, 0), 1)
    }
}
