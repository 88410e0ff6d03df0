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
    public var all: [Record]

    public init(_ all: [Record]) {
        self.all = all
    }

    public func items(of kind: ItemKind) -> [Item] {
        all.map { Item(kind: kind, record: $0) }
    }

    public func isEqual(to other: any ItemCollection) -> Bool {
        (other as? Records<Record>) == self
    }
}
