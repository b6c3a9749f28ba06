import Foundation

extension Image {
    /// Decodes a PNG image.
    ///
    /// Supports 8-bit grayscale, grayscale + alpha, truecolor, truecolor + alpha and palette
    /// images (palette also at 1, 2 and 4 bits), with `tRNS` transparency, non-interlaced.
    /// Chunk CRCs and the zlib Adler-32 are checked.
    ///
    /// - Parameters:
    ///   - pngData: The file's bytes.
    ///   - name: The name shown by ``description``.
    /// - Throws: ``ImageError/notAnImage`` when the data is not a PNG; another ``ImageError``
    ///   for a damaged or unsupported one.
    public init(pngData: Data, name: String = "") throws {
        self = try PNGDecoder.decode([UInt8](pngData), name: name)
    }

    /// Decodes a PNG image, or gives `nil` when the data is not one this decoder reads
    /// (UIKit's `UIImage(data:)`, for code written against it; ``init(pngData:name:)`` says why).
    ///
    ///     guard let image = Image(data: data) else { throw DecodingError() }
    ///
    /// - Parameter data: The file's bytes.
    public init?(data: Data) {
        guard let image = try? Image(pngData: data) else { return nil }
        self = image
    }

    /// Encodes the image as a PNG (truecolor + alpha, 8 bits, straight alpha).
    ///
    /// The pixel data is stored uncompressed inside a valid zlib stream.
    ///
    /// - Returns: The PNG file's bytes.
    public func pngData() -> Data {
        var straight = [UInt8](repeating: 0, count: pixels.count)
        for index in stride(from: 0, to: pixels.count, by: 4) {
            let alpha = pixels[index + 3]
            straight[index] = unpremultiply(pixels[index], alpha)
            straight[index + 1] = unpremultiply(pixels[index + 1], alpha)
            straight[index + 2] = unpremultiply(pixels[index + 2], alpha)
            straight[index + 3] = alpha
        }
        return PNGEncoder.encode(width: width, height: height, colorType: .truecolorAlpha, samples: straight)
    }
}

/// Writes PNG files: any 8-bit colour type, a chosen row filter, pixel data in stored
/// (uncompressed) DEFLATE blocks.
public enum PNGEncoder {
    /// A PNG colour type.
    public enum ColorType: UInt8, Sendable {
        /// One gray sample per pixel.
        case grayscale = 0
        /// Red, green, blue.
        case truecolor = 2
        /// One palette index per pixel.
        case indexed = 3
        /// Gray and alpha.
        case grayscaleAlpha = 4
        /// Red, green, blue and alpha.
        case truecolorAlpha = 6

        /// Samples per pixel.
        public var channels: Int {
            switch self {
            case .grayscale, .indexed: 1
            case .grayscaleAlpha: 2
            case .truecolor: 3
            case .truecolorAlpha: 4
            }
        }
    }

    /// Encodes 8-bit samples as a PNG.
    ///
    /// - Parameters:
    ///   - width: The width in pixels.
    ///   - height: The height in pixels.
    ///   - colorType: How `samples` are laid out.
    ///   - samples: `width × height × channels` bytes, rows top to bottom, straight alpha.
    ///   - palette: RGB triples for ``ColorType/indexed``.
    ///   - transparency: The `tRNS` chunk's bytes (palette alphas), if any.
    ///   - filter: The row filter (0 none, 1 sub, 2 up, 3 average, 4 Paeth); `nil` cycles
    ///     through all five, row by row.
    /// - Returns: The PNG file's bytes.
    public static func encode(width: Int, height: Int, colorType: ColorType, samples: [UInt8], palette: [UInt8] = [], transparency: [UInt8]? = nil, filter: UInt8? = 0) -> Data {
        let channels = colorType.channels
        precondition(samples.count == width * height * channels, "Expected \(width * height * channels) samples")
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header += bigEndian(UInt32(width))
        header += bigEndian(UInt32(height))
        header += [8, colorType.rawValue, 0, 0, 0]
        appendChunk("IHDR", header, to: &file)
        if colorType == .indexed { appendChunk("PLTE", palette, to: &file) }
        if let transparency { appendChunk("tRNS", transparency, to: &file) }
        let stride = width * channels
        var raw: [UInt8] = []
        raw.reserveCapacity((stride + 1) * height)
        for y in 0..<height {
            let rowFilter = filter ?? UInt8(y % 5)
            let row = Array(samples[y * stride..<(y + 1) * stride])
            let previous = y == 0 ? [UInt8](repeating: 0, count: stride) : Array(samples[(y - 1) * stride..<y * stride])
            raw.append(rowFilter)
            for x in 0..<stride {
                let left = x >= channels ? Int(row[x - channels]) : 0
                let up = Int(previous[x])
                let upLeft = x >= channels ? Int(previous[x - channels]) : 0
                let predicted: Int
                switch rowFilter {
                case 1: predicted = left
                case 2: predicted = up
                case 3: predicted = (left + up) / 2
                case 4: predicted = paeth(left, up, upLeft)
                default: predicted = 0
                }
                raw.append(UInt8(truncatingIfNeeded: Int(row[x]) - predicted))
            }
        }
        appendChunk("IDAT", zlibStored(raw), to: &file)
        appendChunk("IEND", [], to: &file)
        return Data(file)
    }

    /// Wraps `bytes` in a zlib stream of stored DEFLATE blocks.
    static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65_535, bytes.count - offset)
            let isFinal = offset + length == bytes.count
            out.append(isFinal ? 1 : 0)
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            out += bytes[offset..<offset + length]
            offset += length
        } while offset < bytes.count
        out += bigEndian(adler32(bytes))
        return out
    }

    static func appendChunk(_ type: String, _ data: [UInt8], to file: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        file += bigEndian(UInt32(data.count))
        file += typeBytes
        file += data
        file += bigEndian(crc32(typeBytes + data))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}

func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
    let p = a + b - c
    let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
    if pa <= pb && pa <= pc { return a }
    return pb <= pc ? b : c
}

/// Reads PNG files into premultiplied RGBA ``Image``s.
enum PNGDecoder {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func decode(_ bytes: [UInt8], name: String) throws -> Image {
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { throw ImageError.notAnImage }
        var position = 8
        var width = 0, height = 0, bitDepth = 0, colorType = -1
        var palette: [UInt8] = []
        var transparency: [UInt8] = []
        var compressed: [UInt8] = []
        var sawHeader = false, sawEnd = false
        while !sawEnd {
            guard position + 12 <= bytes.count else { throw ImageError.truncated }
            let length = Int(readUInt32(bytes, position))
            let typeBytes = Array(bytes[position + 4..<position + 8])
            let type = String(decoding: typeBytes, as: UTF8.self)
            guard length <= 0x7FFF_FFFF, position + 12 + length <= bytes.count else { throw ImageError.truncated }
            let data = Array(bytes[position + 8..<position + 8 + length])
            let stored = readUInt32(bytes, position + 8 + length)
            guard crc32(typeBytes + data) == stored else { throw ImageError.badChecksum(chunk: type) }
            position += 12 + length
            if !sawHeader && type != "IHDR" { throw ImageError.invalidHeader("IHDR must be the first chunk, found \(type)") }
            switch type {
            case "IHDR":
                guard !sawHeader, length == 13 else { throw ImageError.invalidHeader("malformed IHDR") }
                sawHeader = true
                width = Int(readUInt32(data, 0))
                height = Int(readUInt32(data, 4))
                bitDepth = Int(data[8])
                colorType = Int(data[9])
                guard data[10] == 0, data[11] == 0 else { throw ImageError.invalidHeader("unknown compression or filter method") }
                guard width > 0, height > 0, width <= Image.maximumDimension, height <= Image.maximumDimension else {
                    throw ImageError.invalidDimensions(width: width, height: height)
                }
                guard [0, 2, 3, 4, 6].contains(colorType) else { throw ImageError.invalidHeader("colour type \(colorType)") }
                if data[12] == 1 { throw ImageError.unsupported("interlaced (Adam7) images") }
                guard data[12] == 0 else { throw ImageError.invalidHeader("interlace method \(data[12])") }
                let paletteDepths = [1, 2, 4, 8]
                if colorType == 3 ? !paletteDepths.contains(bitDepth) : bitDepth != 8 {
                    throw ImageError.unsupported("bit depth \(bitDepth) for colour type \(colorType)")
                }
            case "PLTE":
                guard length % 3 == 0, length > 0, length <= 768 else { throw ImageError.invalidHeader("malformed PLTE") }
                palette = data
            case "tRNS":
                transparency = data
            case "IDAT":
                compressed += data
            case "IEND":
                sawEnd = true
            default:
                // Ancillary chunks (lowercase first letter) are skipped; unknown critical ones are not.
                if typeBytes[0] & 0x20 == 0 { throw ImageError.unsupported("critical chunk \(type)") }
            }
        }
        guard !compressed.isEmpty else { throw ImageError.corruptData("no IDAT chunk") }
        if colorType == 3 && palette.isEmpty { throw ImageError.invalidHeader("palette image without PLTE") }
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]!
        let bitsPerPixel = channels * bitDepth
        let stride = (width * bitsPerPixel + 7) / 8
        let filterStep = max(1, bitsPerPixel / 8)
        let raw = try Inflate.zlib(compressed, expectedSize: (stride + 1) * height)
        guard raw.count >= (stride + 1) * height else { throw ImageError.truncated }
        var samples = [UInt8](repeating: 0, count: stride * height)
        for y in 0..<height {
            let filter = raw[y * (stride + 1)]
            let source = y * (stride + 1) + 1
            let row = y * stride
            for x in 0..<stride {
                let value = Int(raw[source + x])
                let left = x >= filterStep ? Int(samples[row + x - filterStep]) : 0
                let up = y > 0 ? Int(samples[row - stride + x]) : 0
                let upLeft = (y > 0 && x >= filterStep) ? Int(samples[row - stride + x - filterStep]) : 0
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = left
                case 2: predicted = up
                case 3: predicted = (left + up) / 2
                case 4: predicted = paeth(left, up, upLeft)
                default: throw ImageError.corruptData("unknown filter type \(filter) on row \(y)")
                }
                samples[row + x] = UInt8(truncatingIfNeeded: value + predicted)
            }
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var colorKey: [Int]? = nil
        if colorType == 0, transparency.count >= 2 { colorKey = [Int(readUInt16(transparency, 0))] }
        if colorType == 2, transparency.count >= 6 {
            colorKey = [Int(readUInt16(transparency, 0)), Int(readUInt16(transparency, 2)), Int(readUInt16(transparency, 4))]
        }
        for y in 0..<height {
            for x in 0..<width {
                let row = y * stride
                var r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255
                switch colorType {
                case 0:
                    r = samples[row + x]; g = r; b = r
                    if colorKey == [Int(r)] { a = 0 }
                case 2:
                    r = samples[row + x * 3]; g = samples[row + x * 3 + 1]; b = samples[row + x * 3 + 2]
                    if colorKey == [Int(r), Int(g), Int(b)] { a = 0 }
                case 3:
                    let bitOffset = x * bitDepth
                    let byte = Int(samples[row + bitOffset / 8])
                    let index = (byte >> (8 - bitDepth - bitOffset % 8)) & ((1 << bitDepth) - 1)
                    guard index * 3 + 2 < palette.count else { throw ImageError.corruptData("palette index \(index) out of range") }
                    r = palette[index * 3]; g = palette[index * 3 + 1]; b = palette[index * 3 + 2]
                    if index < transparency.count { a = transparency[index] }
                case 4:
                    r = samples[row + x * 2]; g = r; b = r; a = samples[row + x * 2 + 1]
                default:
                    r = samples[row + x * 4]; g = samples[row + x * 4 + 1]; b = samples[row + x * 4 + 2]; a = samples[row + x * 4 + 3]
                }
                let index = (y * width + x) * 4
                pixels[index] = premultiply(r, a)
                pixels[index + 1] = premultiply(g, a)
                pixels[index + 2] = premultiply(b, a)
                pixels[index + 3] = a
            }
        }
        return try Image(width: width, height: height, pixels: pixels, name: name)
    }

    private static func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    private static func readUInt16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }
}
