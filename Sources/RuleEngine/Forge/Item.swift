import Foundation

/// One item a rule may act on: its kind and the record its plugin keeps of it.
///
/// The record is held by reference, so a field reads it in place as its plugin's own type
/// (``box(as:)``) rather than copying a score of fields out of an existential for every value it
/// derives; the engine needs only the number, the title, the time and what is known.
public struct Item: Sendable, Hashable {
    public let kind: ItemKind
    /// The record's facts the engine reads, kept beside it: reading them through the record's
    /// protocol would copy the whole record into an existential each time.
    public let number: Int
    /// What names it in its repository (``ItemRecord/key``).
    public let key: String
    public let title: String
    public let updatedAt: Date?
    public let known: Set<ReadNeed>
    private let storage: any ItemRecordStorage
    /// The record's type, so ``box(as:)`` tells a match by identity and casts without the runtime.
    private let recordType: ObjectIdentifier

    public init<Record: ItemRecord>(kind: ItemKind, record: Record) {
        self.kind = kind
        number = record.number
        key = record.key
        title = record.title
        updatedAt = record.updatedAt
        known = record.known
        storage = ItemRecordBox(record)
        recordType = ObjectIdentifier(Record.self)
    }

    /// The record, as whatever type its plugin keeps.
    public var record: any ItemRecord { storage.anyRecord }
    /// The record as `Record`, in place; `nil` when the item is of another type.
    public func box<Record: ItemRecord>(as type: Record.Type) -> ItemRecordBox<Record>? {
        guard recordType == ObjectIdentifier(Record.self) else { return nil }
        return unsafeDowncast(storage, to: ItemRecordBox<Record>.self)
    }

    public static func == (lhs: Item, rhs: Item) -> Bool {
        lhs.kind == rhs.kind && AnyHashable(lhs.record) == AnyHashable(rhs.record)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(AnyHashable(record))
    }
}

/// A record held by reference: what ``Item`` keeps, so fields read it without copying it.
public final class ItemRecordBox<Record: ItemRecord>: ItemRecordStorage {
    public let record: Record

    init(_ record: Record) {
        self.record = record
    }

    public var anyRecord: any ItemRecord { record }
}

/// Any ``ItemRecordBox``, whatever its record's type.
public protocol ItemRecordStorage: AnyObject, Sendable {
    var anyRecord: any ItemRecord { get }
}
