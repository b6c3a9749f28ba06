import Foundation

/// What the `rowpage` fuzz target (`Fuzz/Targets/rowpage.swift`) asks of any bytes taken as the
/// body of a row page laid out by field (what follows its kind byte), for a table whose fields
/// have the kinds `kindNames` (as a table definition spells them) and may be null where
/// `optional` says: that turning the page round never traps, and that the quick check keeps
/// its promise.
///
/// - Returns: `nil` when the quick check refuses the page (or cannot describe a field);
///   `true` when it accepts it and the page turns round into rows the row-by-row check accepts
///   (each row `kindNames.count` values, each of its field's kind); `false` when it accepts a
///   page that does not — the broken promise the fuzz target stops on.
package func _fieldLaidQuickCheckKeepsItsPromise(body: [UInt8], kindNames: [String], optional: [Bool]) -> Bool? {
    let checks = kindNames.map(ValueCheck.init(kindName:))
    var record = [UInt8](repeating: 0, count: FileFormat.recordHeaderSize)
    record.append(FileFormat.Kind.rowPage.rawValue)
    record.append(contentsOf: body)
    return record.withUnsafeBytes { raw -> Bool? in
        let start = FileFormat.recordHeaderSize + 1
        // The rows the page says it holds, as the table would expect them.
        var r = ByteReader(raw, from: start, to: raw.count)
        let expected = (try? r.count()).map { min(max($0, 1), PagedTable.rowsPerPage) } ?? 1
        let turned = try? FieldLaidRows.rowMajor(raw, from: start, expected: expected)
        let rules = zip(checks, optional).compactMap { TagRule($0, optional: $1) }
        guard rules.count == checks.count,
              rules.withUnsafeBufferPointer({ FieldLaidRows.fits(raw, from: start, expected: expected, rules: $0) }) else { return nil }
        guard let turned else { return false }
        return turned.bytes.withUnsafeBytes { rows in
            for k in 0..<turned.offsets.count - 1 {
                var row = ByteReader(rows, from: turned.offsets[k], to: turned.offsets[k + 1])
                do {
                    guard try row.count() == checks.count else { return false }
                    for i in checks.indices { try row.skipValue(checks[i], optional: optional[i]) }
                    guard row.isAtEnd else { return false }
                } catch {
                    return false
                }
            }
            return true
        }
    }
}
