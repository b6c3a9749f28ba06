import Foundation

extension ObservableType where Element == Data {
    /// Decodes each `Data` element as an `Item` with `decoder`; data that does not decode ends
    /// the sequence with the decoder's error.
    ///
    ///     --d--e--|   decode(type: Pizza.self, decoder: JSONDecoder())   --p--#
    ///
    /// (`d` is the JSON of a pizza, `p` that pizza; `e` is data that is not a pizza.)
    ///
    /// - Parameters:
    ///   - type: The `Decodable` type to decode.
    ///   - decoder: A decoder of data: `JSONDecoder`, `PropertyListDecoder`, or your own
    ///     conforming to ``DataDecoder``.
    /// - Returns: The decoded elements.
    public func decode<Item: Decodable>(type: Item.Type, decoder: some DataDecoder) -> Observable<Item> {
        map { try decoder.decode(type, from: $0) }
    }
}

/// A decoder that turns `Data` into a `Decodable` value, as ``ObservableType/decode(type:decoder:)``
/// needs. `JSONDecoder` and `PropertyListDecoder` conform.
public protocol DataDecoder {
    /// Decodes a value of `type` from `data`.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The encoded value.
    /// - Returns: The decoded value.
    /// - Throws: The decoder's error when `data` is not a valid `type`.
    func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item
}

extension JSONDecoder: DataDecoder {}
extension PropertyListDecoder: DataDecoder {}
