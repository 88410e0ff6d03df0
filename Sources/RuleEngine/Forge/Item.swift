import Foundation

/// One item a rule may act on: its kind and the record its plugin keeps of it.
///
/// Fields read the record as their plugin's own type (`item.record as? IssueRecord`); the engine
/// needs only the number, the title, the time and what is known.
public struct Item: Sendable, Hashable {
    public let kind: ItemKind
    public let record: any ItemRecord

    public init(kind: ItemKind, record: any ItemRecord) {
        self.kind = kind
        self.record = record
    }

    public var number: Int { record.number }
    public var title: String { record.title }
    public var updatedAt: Date? { record.updatedAt }
    public var known: Set<ReadNeed> { record.known }

    public static func == (lhs: Item, rhs: Item) -> Bool {
        lhs.kind == rhs.kind && AnyHashable(lhs.record) == AnyHashable(rhs.record)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(AnyHashable(record))
    }
}
