import Foundation

extension FileFormat {
    /// Walks the framed records from `start` to the end of `bytes`, which begin at file offset
    /// `origin`, as every format frames them, and hands each whole record's kind and payload
    /// to `body` with the record's place in the file (which must read the payload to its end).
    ///
    /// Each record's header and payload checksums are checked. A record that is not whole (cut
    /// short, zero-filled, or the last one with a payload that does not match its checksum)
    /// ends the walk when `mayBeTorn` says it may be a commit torn by a crash (it is given the
    /// record's kind byte when that is there); otherwise it is damage inside the snapshot.
    ///
    /// - Returns: The end of the last whole record, relative to `bytes`.
    /// - Throws: ``StoreError/corrupted(offset:reason:)``, with `body`'s ``FileFormatError``s
    ///   at the offset of their record.
    static func forEachRecord(_ bytes: UnsafeRawBufferPointer, origin: Int, from start: Int, mayBeTorn: (_ kind: UInt8?) -> Bool,
                              _ body: (_ kind: Kind, _ kindByte: UInt8, _ payload: inout ByteReader, _ record: Range<Int>) throws -> Void) throws -> Int {
        let size = bytes.count
        var offset = start
        func snapshotDamage(_ what: String) -> StoreError {
            .corrupted(offset: origin + offset, reason: "\(what) inside the snapshot (only a commit after it can be torn by a crash)")
        }
        while offset < size {
            let remaining = size - offset
            if remaining < recordHeaderSize {   // a torn record header
                if mayBeTorn(nil) { break }
                throw snapshotDamage("a record header cut short")
            }
            var r = ByteReader(bytes, from: offset, to: offset + recordHeaderSize)
            let length = Int(try! r.u32())
            let payloadCRC = try! r.u32()
            let check = try! r.u32()
            if _storeFileVerifiesChecksums, check != CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 8])) {
                if bytes[offset...].allSatisfy({ $0 == 0 }) {   // zero-filled tail
                    if mayBeTorn(nil) { break }
                    throw snapshotDamage("zeros")
                }
                throw checksumMismatch("a record header's", record: origin + offset, covering: (origin + offset)..<(origin + offset + recordHeaderSize))
            }
            guard length >= 1, length <= maxRecordLength else {
                throw StoreError.corrupted(offset: origin + offset, reason: "a record has an impossible length \(length)")
            }
            let end = offset + recordHeaderSize + length
            let kindByte = remaining > recordHeaderSize ? bytes[offset + recordHeaderSize] : nil
            if end > size {   // the last record was cut short
                if mayBeTorn(kindByte) { break }
                throw snapshotDamage("a record cut short")
            }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[(offset + recordHeaderSize)..<end])
            if _storeFileVerifiesChecksums, CRC32C.checksum(payload) != payloadCRC {
                if end == size {   // the last record was not completely written
                    if mayBeTorn(kindByte) { break }
                    throw snapshotDamage("a record whose checksum does not match")
                }
                throw checksumMismatch("a record's", record: origin + offset, covering: (origin + offset + recordHeaderSize)..<(origin + end),
                                      checksum: (origin + offset + 4)..<(origin + offset + 8))
            }
            do {
                var p = ByteReader(bytes, from: offset + recordHeaderSize, to: end)
                let kindByte = try p.u8()
                guard let kind = Kind(rawValue: kindByte) else { throw FileFormatError("unknown record kind \(kindByte)") }
                try body(kind, kindByte, &p, (origin + offset)..<(origin + end))
                guard p.isAtEnd else { throw FileFormatError("\(end - p.position) unexpected bytes at the end of a record") }
            } catch let error as FileFormatError {
                throw StoreError.corrupted(offset: origin + offset, reason: error.reason)
            }
            offset = end
        }
        return offset
    }
}
