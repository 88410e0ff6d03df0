import GitbayKit

/// What the bot knows of one repository: its items, by kind, and the repository-wide facts rules
/// consult.
public struct RepositoryState: Sendable, Hashable {
    public var path: RepositoryPath { didSet { memo = RepositoryMemo() } }
    public var defaultBranch: String? { didSet { memo = RepositoryMemo() } }
    /// Branch and tag tips; `nil` until read.
    public var refs: RepositoryRefs? { didSet { memo = RepositoryMemo() } }
    /// The dependency checker's state; `nil` until read.
    public var dependencies: DependencyStatus? { didSet { memo = RepositoryMemo() } }
    /// The items of each kind, as their plugins keep them (``records(_:as:)``).
    public private(set) var collections: [ItemKind: any ItemCollection] = [:] { didSet { memo = RepositoryMemo() } }
    /// Which repository-wide needs have been read (`.refs`, `.dependencies`, `.openMergeRequests`...).
    public var known: Set<ReadNeed> { didSet { memo = RepositoryMemo() } }
    /// An archived repository refuses every write (exit 4), so evaluation leaves it alone.
    public var archived: Bool
    /// What plugins derived from the state above; replaced, never edited, when any of it changes.
    public private(set) var memo = RepositoryMemo()

    public init(
        path: RepositoryPath, defaultBranch: String? = nil, refs: RepositoryRefs? = nil,
        dependencies: DependencyStatus? = nil, known: Set<ReadNeed> = [], archived: Bool = false
    ) {
        self.path = path
        self.defaultBranch = defaultBranch
        self.refs = refs
        self.dependencies = dependencies
        self.known = known
        self.archived = archived
    }

    /// The records of `kind`, of the type its plugin keeps; none when there are none of that type.
    public func records<Record: ItemRecord>(_ kind: ItemKind, as type: Record.Type = Record.self) -> [Record] {
        (collections[kind] as? Records<Record>)?.all ?? []
    }

    /// Replaces the records of `kind`.
    public mutating func setRecords<Record: ItemRecord>(_ records: [Record], _ kind: ItemKind) {
        collections[kind] = Records(records, kind: kind)
    }

    /// Replaces the records of `kind` with a collection as its plugin keeps it.
    public mutating func setCollection(_ collection: any ItemCollection, _ kind: ItemKind) {
        collections[kind] = collection
    }

    /// The items of `kind`, in the order they are kept.
    public func items(of kind: ItemKind) -> [Item] {
        collections[kind]?.items(of: kind) ?? []
    }

    public static func == (lhs: RepositoryState, rhs: RepositoryState) -> Bool {
        lhs.path == rhs.path && lhs.defaultBranch == rhs.defaultBranch && lhs.refs == rhs.refs
            && lhs.dependencies == rhs.dependencies && lhs.known == rhs.known && lhs.archived == rhs.archived
            && lhs.collections.holdsTheSame(as: rhs.collections)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(defaultBranch)
        hasher.combine(refs)
        hasher.combine(dependencies)
        hasher.combine(known)
        hasher.combine(archived)
        collections.hash(into: &hasher)
    }
}
