/// Which old sections and rows the new ones are: the work both diffs share, in flat arrays.
///
/// Paths are packed in one integer, the section in the high 32 bits (``Diff/packPath(_:_:)``).
@usableFromInline
struct SectionedMatch {
    /// For each old section, its index among the final sections, or -1 when it is deleted.
    @usableFromInline var newSectionOfOld: [Int]
    /// For each new section, its index among the initial sections, or -1 when it is inserted.
    @usableFromInline var oldSectionOfNew: [Int]
    /// Where each old section's rows start in the flat numbering of all old rows.
    @usableFromInline var oldStart: [Int]
    /// For each old row (flat), its packed path among the final sections, or -1 when it is gone.
    @usableFromInline var destination: [Int]
    /// The new rows of surviving sections that no row of a surviving old section becomes (new
    /// identities, or rows whose old section is deleted), in order.
    @usableFromInline var arrivals: [ItemPath]

    @inlinable
    init(newSectionOfOld: [Int], oldSectionOfNew: [Int], oldStart: [Int], destination: [Int], arrivals: [ItemPath]) {
        self.newSectionOfOld = newSectionOfOld
        self.oldSectionOfNew = oldSectionOfNew
        self.oldStart = oldStart
        self.destination = destination
        self.arrivals = arrivals
    }

    /// Whether the old row at flat index `flat` leaves its section's place in the list: it is
    /// gone, or it goes into an inserted section (which brings its own rows).
    @inlinable
    func isRemoved(_ flat: Int) -> Bool {
        let target = destination[flat]
        return target < 0 || oldSectionOfNew[target >> 32] < 0
    }
}

extension Diff {
    /// Matches the sections and rows of both sides by identity.
    ///
    /// The work is one hash table of old row identities, probed once per new row that is not at
    /// the same place in the same section (the common case needs no lookup), and a few flat
    /// arrays whose number does not grow with the rows.
    ///
    /// - Throws: ``Error/duplicateSection(section:)`` or ``Error/duplicateItem(item:)`` when an
    ///   identity repeats on either side.
    @inlinable
    static func match<Section: AnimatableSectionModelType>(
        _ initialSections: [Section], _ finalSections: [Section], oldItems: [[Section.Item]], newItems: [[Section.Item]]
    ) throws -> SectionedMatch {
        let oldSectionIndex = try indexSections(initialSections)
        let newSectionIndex = try indexSections(finalSections)
        var newSectionOfOld = [Int](repeating: -1, count: initialSections.count)
        for (old, section) in initialSections.enumerated() {
            if let new = newSectionIndex[section.identity] { newSectionOfOld[old] = new }
        }
        var oldSectionOfNew = [Int](repeating: -1, count: finalSections.count)
        for (new, section) in finalSections.enumerated() {
            if let old = oldSectionIndex[section.identity] { oldSectionOfNew[new] = old }
        }
        var oldStart = [Int](repeating: 0, count: oldItems.count)
        var oldCount = 0
        for (section, items) in oldItems.enumerated() {
            oldStart[section] = oldCount
            oldCount += items.count
        }
        var identities = [Section.Item.Identity: Int](minimumCapacity: oldCount)
        for (section, items) in oldItems.enumerated() {
            for (row, item) in items.enumerated() where identities.updateValue(packPath(section, row), forKey: item.identity) != nil {
                throw Error.duplicateItem(item: item)
            }
        }
        var destination = [Int](repeating: -1, count: oldCount)
        var arrivals: [ItemPath] = []
        for (section, items) in newItems.enumerated() {
            let oldSection = oldSectionOfNew[section]
            let survives = oldSection >= 0
            let aligned = survives ? oldItems[oldSection] : []
            for (row, item) in items.enumerated() {
                let identity = item.identity
                if row < aligned.count && aligned[row].identity == identity {
                    // The same row at the same place: no lookup. Its identity is in the table,
                    // so a second row with it is still caught.
                    let flat = oldStart[oldSection] + row
                    guard destination[flat] < 0 else { throw Error.duplicateItem(item: item) }
                    destination[flat] = packPath(section, row)
                    continue
                }
                guard let old = identities[identity] else {
                    // Only in the final sections; marked so that a second one is a duplicate.
                    identities[identity] = newOnly
                    if survives { arrivals.append(ItemPath(sectionIndex: section, itemIndex: row)) }
                    continue
                }
                guard old != newOnly else { throw Error.duplicateItem(item: item) }
                let flat = oldStart[old >> 32] + (old & rowMask)
                guard destination[flat] < 0 else { throw Error.duplicateItem(item: item) }
                destination[flat] = packPath(section, row)
                if survives && newSectionOfOld[old >> 32] < 0 {
                    // Its old section is gone: in a surviving new section, it arrives.
                    arrivals.append(ItemPath(sectionIndex: section, itemIndex: row))
                }
            }
        }
        return SectionedMatch(newSectionOfOld: newSectionOfOld, oldSectionOfNew: oldSectionOfNew, oldStart: oldStart, destination: destination, arrivals: arrivals)
    }

    /// The value of an identity seen only in the final sections.
    @usableFromInline static var newOnly: Int { -1 }

    /// The row part of a packed path.
    @usableFromInline static var rowMask: Int { 0xFFFF_FFFF }

    /// A section and row in one integer (section in the high 32 bits).
    @inlinable static func packPath(_ section: Int, _ row: Int) -> Int { section << 32 | row }

    /// Each section's identity → its index.
    ///
    /// - Throws: ``Error/duplicateSection(section:)`` with the second section of an identity.
    @inlinable
    static func indexSections<Section: AnimatableSectionModelType>(_ sections: [Section]) throws -> [Section.Identity: Int] {
        var index = [Section.Identity: Int](minimumCapacity: sections.count)
        for (offset, section) in sections.enumerated() where index.updateValue(offset, forKey: section.identity) != nil {
            throw Error.duplicateSection(section: section)
        }
        return index
    }

    /// `Section(original:items:)`, checked: the section it makes must hold exactly `items` and
    /// keep `original`'s identity, or the staged changesets would not add up.
    ///
    /// - Throws: ``Error/invalidInitializerImplementation(section:expectedItems:expectedIdentifier:)``.
    @inlinable
    static func rebuild<Section: AnimatableSectionModelType>(_ original: Section, items: [Section.Item]) throws -> Section {
        let section = Section(original: original, items: items)
        // Array equality first compares storage, so a section that keeps `items` costs nothing.
        guard section.identity == original.identity, section.items == items else {
            throw Error.invalidInitializerImplementation(section: section, expectedItems: items, expectedIdentifier: original.identity)
        }
        return section
    }
}
