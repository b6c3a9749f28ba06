import Foundation

/// A decoded bitmap: RGBA, 8 bits per component, alpha premultiplied, rows top to bottom —
/// the memory layout of a `CGBitmapContext` with `premultipliedLast`.
///
///     let image = try Image(pngData: data, name: "pepperoni")
///     image.pixel(x: 3, y: 1)            // Image.Pixel(r: …, g: …, b: …, a: …)
///     image.byteIndex(x: 3, y: 1)        // 1 * image.bytesPerRow + 3 * 4
///     String(describing: image)          // [image pepperoni 64×64]
public struct Image: Sendable, Equatable, CustomStringConvertible {
    /// One pixel, premultiplied.
    public struct Pixel: Sendable, Hashable, CustomStringConvertible {
        /// Red, premultiplied by alpha.
        public var r: UInt8
        /// Green, premultiplied by alpha.
        public var g: UInt8
        /// Blue, premultiplied by alpha.
        public var b: UInt8
        /// Alpha (255 is opaque).
        public var a: UInt8

        /// Creates a pixel from premultiplied components.
        public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
            self.r = r
            self.g = g
            self.b = b
            self.a = a
        }

        /// Creates a pixel from straight (not premultiplied) components, premultiplying them.
        ///
        /// - Returns: The premultiplied pixel; each component is `c × a / 255` rounded.
        public static func straight(r: UInt8, g: UInt8, b: UInt8, a: UInt8) -> Pixel {
            Pixel(r: premultiply(r, a), g: premultiply(g, a), b: premultiply(b, a), a: a)
        }

        /// `rgba(r,g,b,a)`.
        public var description: String { "rgba(\(r),\(g),\(b),\(a))" }
    }

    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// The pixels, `bytesPerRow × height` bytes, RGBA premultiplied.
    public let pixels: [UInt8]
    /// A name used by ``description`` (e.g. the file or URL the image came from).
    public var name: String

    /// Bits per component: 8.
    public static let bitsPerComponent = 8
    /// Bytes per pixel: 4 (R, G, B, A).
    public static let bytesPerPixel = 4

    /// Bytes per row: `width × 4`, no padding.
    public var bytesPerRow: Int { width * Image.bytesPerPixel }

    /// Creates an image from premultiplied RGBA bytes.
    ///
    /// - Parameters:
    ///   - width: The width, at least 1.
    ///   - height: The height, at least 1.
    ///   - pixels: `width × height × 4` bytes.
    ///   - name: The name shown by ``description``.
    /// - Throws: ``ImageError/invalidDimensions(width:height:)`` or
    ///   ``ImageError/truncated`` when the sizes do not match.
    public init(width: Int, height: Int, pixels: [UInt8], name: String = "") throws {
        guard width > 0, height > 0, width <= Image.maximumDimension, height <= Image.maximumDimension else {
            throw ImageError.invalidDimensions(width: width, height: height)
        }
        guard pixels.count == width * height * Image.bytesPerPixel else { throw ImageError.truncated }
        self.width = width
        self.height = height
        self.pixels = pixels
        self.name = name
    }

    /// Creates an image filled with one colour; handy for placeholders and tests.
    ///
    /// - Parameters:
    ///   - width: The width, at least 1.
    ///   - height: The height, at least 1.
    ///   - color: The premultiplied colour of every pixel.
    ///   - name: The name shown by ``description``.
    public init(width: Int, height: Int, color: Pixel, name: String = "") {
        precondition(width > 0 && height > 0 && width <= Image.maximumDimension && height <= Image.maximumDimension, "Invalid image size \(width)×\(height)")
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for index in stride(from: 0, to: bytes.count, by: 4) {
            bytes[index] = color.r
            bytes[index + 1] = color.g
            bytes[index + 2] = color.b
            bytes[index + 3] = color.a
        }
        self.width = width
        self.height = height
        self.pixels = bytes
        self.name = name
    }

    /// The largest width or height accepted: 16,384.
    public static let maximumDimension = 16_384

    /// The index of the first byte (red) of the pixel at (`x`, `y`): `y × bytesPerRow + x × 4`.
    ///
    /// - Parameters:
    ///   - x: The column, from the left.
    ///   - y: The row, from the top.
    /// - Returns: The index in ``pixels``.
    public func byteIndex(x: Int, y: Int) -> Int {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "Pixel (\(x), \(y)) is outside a \(width)×\(height) image")
        return y * bytesPerRow + x * Image.bytesPerPixel
    }

    /// The pixel at (`x`, `y`).
    ///
    /// - Parameters:
    ///   - x: The column, from the left.
    ///   - y: The row, from the top.
    /// - Returns: The premultiplied pixel.
    public func pixel(x: Int, y: Int) -> Pixel {
        let index = byteIndex(x: x, y: y)
        return Pixel(r: pixels[index], g: pixels[index + 1], b: pixels[index + 2], a: pixels[index + 3])
    }

    /// `[image name W×H]`.
    public var description: String {
        name.isEmpty ? "[image \(width)×\(height)]" : "[image \(name) \(width)×\(height)]"
    }

    /// Returns a copy with another name.
    ///
    /// - Parameter name: The new name.
    /// - Returns: The same pixels, renamed.
    public func named(_ name: String) -> Image {
        var copy = self
        copy.name = name
        return copy
    }
}

/// Why data could not be decoded as an image.
public enum ImageError: Error, Equatable, Sendable {
    /// The data does not start with a known image signature ("Failed to load the image").
    case notAnImage
    /// The data ends before the image does.
    case truncated
    /// A chunk's checksum does not match its contents.
    case badChecksum(chunk: String)
    /// The image header is missing, misplaced or malformed.
    case invalidHeader(String)
    /// The width or height is zero or too large.
    case invalidDimensions(width: Int, height: Int)
    /// A valid PNG using a feature this decoder does not support (bit depth, interlacing…).
    case unsupported(String)
    /// The compressed pixel data is malformed.
    case corruptData(String)
}

func premultiply(_ component: UInt8, _ alpha: UInt8) -> UInt8 {
    UInt8((Int(component) * Int(alpha) + 127) / 255)
}

func unpremultiply(_ component: UInt8, _ alpha: UInt8) -> UInt8 {
    guard alpha > 0 else { return 0 }
    return UInt8(min(255, (Int(component) * 255 + Int(alpha) / 2) / Int(alpha)))
}
