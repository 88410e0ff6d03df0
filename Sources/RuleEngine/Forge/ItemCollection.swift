/// The items of one kind in a repository, kept as the records of the plugin that declares it.
///
/// Typed storage behind an existential: a plugin's accessor (`repository.issues`) gets and sets
/// its array without converting each record, and the engine lists them as ``Item``s.
public protocol ItemCollection: Sendable {
    /// The records as items of `kind`.
    func items(of kind: ItemKind) -> [Item]
    func isEqual(to other: any ItemCollection) -> Bool
    func hash(into hasher: inout Hasher)
}

/// The records of one kind, of one plugin's type.
public struct Records<Record: ItemRecord>: ItemCollection, Hashable {
    public let all: [Record]
    /// The kind of ``items``, when they were made.
    private let kind: ItemKind?
    /// The records as items, made once when the kind is known: evaluation lists a repository's
    /// items for every plan, and wrapping a hundred thousand records each time was a tenth of it.
    private let items: [Item]

    /// The records; `kind`, when given, makes their items now.
    public init(_ all: [Record], kind: ItemKind? = nil) {
        self.all = all
        self.kind = kind
        items = kind.map { kind in all.map { Item(kind: kind, record: $0) } } ?? []
    }

    public func items(of kind: ItemKind) -> [Item] {
        kind == self.kind ? items : all.map { Item(kind: kind, record: $0) }
    }

    public func isEqual(to other: any ItemCollection) -> Bool {
        (other as? Records<Record>)?.all == all
    }

    public static func == (lhs: Records, rhs: Records) -> Bool {
        lhs.all == rhs.all
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(all)
    }
}

extension Dictionary where Key == ItemKind, Value == any ItemCollection {
    /// Whether both hold the same kinds with equal records: what equality of the states holding
    /// them means, since an existential collection is not `Equatable` itself.
    func holdsTheSame(as other: [ItemKind: any ItemCollection]) -> Bool {
        Set(keys) == Set(other.keys) && allSatisfy { kind, collection in other[kind].map(collection.isEqual) ?? false }
    }

    /// Hashes every kind's records in the kinds' order, so equal dictionaries hash alike.
    func hash(into hasher: inout Hasher) {
        for kind in keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            hasher.combine(kind)
            self[kind]?.hash(into: &hasher)
        }
    }
}
