import GitbayKit

/// What the bot knows of one repository: its items, by kind, and the repository-wide facts rules
/// consult.
public struct RepositoryState: Sendable, Hashable {
    public var path: RepositoryPath { didSet { memo = RepositoryMemo() } }
    public var defaultBranch: String? { didSet { memo = RepositoryMemo() } }
    /// The facts plugins read (branch tips, the dependency checker), each under the need that
    /// declares it, of the type its plugin keeps (``subscript(_:as:)``).
    private var facts: [ReadNeed: any Hashable & Sendable] = [:] { didSet { memo = RepositoryMemo() } }
    /// The items of each kind, as their plugins keep them (``records(_:as:)``).
    public private(set) var collections: [ItemKind: any ItemCollection] = [:] { didSet { memo = RepositoryMemo() } }
    /// Which repository-wide needs have been read (`.refs`, `.dependencies`, `.openMergeRequests`...).
    public var known: Set<ReadNeed> { didSet { memo = RepositoryMemo() } }
    /// An archived repository refuses every write (exit 4), so evaluation leaves it alone.
    public var archived: Bool
    /// What accounts were seen doing to its items (``ItemActivity``), oldest first, by item.
    public var activity: [ItemActivityKey: [ItemActivity]] = [:] { didSet { memo = RepositoryMemo() } }
    /// The bodies of the bot's replies to commands here that gitbay refused for good (an archived
    /// repository takes no comment), from its journal: each settles the commands whose markers it
    /// carries, as the reply on gitbay would have.
    public var refusedReplies: [String] = []
    /// Who may write to it, for commands `allowed: [writers]`; `nil` when no rule asked.
    public var writers: CommandWriters?
    /// Its own rules file and the bases it extends, as read (``RepositoryRules``); `nil` when not
    /// read (repository rules are off, or the run read none), ``RepositoryRuleFiles/none`` when it
    /// carries no file.
    public var ruleFiles: RepositoryRuleFiles?
    /// Its open merge requests that change its rules file, as the read looked at them
    /// (``RuleProposal``), for the preview on each; never acted on.
    public var proposals: [RuleProposal] = []
    /// What plugins derived from the state above; replaced, never edited, when any of it changes.
    public private(set) var memo = RepositoryMemo()

    public init(
        path: RepositoryPath, defaultBranch: String? = nil, known: Set<ReadNeed> = [], archived: Bool = false
    ) {
        self.path = path
        self.defaultBranch = defaultBranch
        self.known = known
        self.archived = archived
    }

    /// The fact the plugin that declares `need` keeps, as read; `nil` until read (or when kept as
    /// another type).
    ///
    /// The engine carries these without knowing them: only that plugin's fields and readers
    /// consult them, through a property it adds (`repository.refs`).
    public subscript<Fact: Hashable & Sendable>(_ need: ReadNeed, as type: Fact.Type = Fact.self) -> Fact? {
        get { facts[need] as? Fact }
        set { facts[need] = newValue }
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

    /// What was seen done to `item`, oldest first; empty when nothing was.
    public func activity(of item: Item) -> [ItemActivity] {
        activity[ItemActivityKey(kind: item.kind, number: item.number)] ?? []
    }

    /// The items of `kind`, in the order they are kept.
    public func items(of kind: ItemKind) -> [Item] {
        collections[kind]?.items(of: kind) ?? []
    }

    public static func == (lhs: RepositoryState, rhs: RepositoryState) -> Bool {
        lhs.path == rhs.path && lhs.defaultBranch == rhs.defaultBranch && lhs.known == rhs.known
            && lhs.archived == rhs.archived && lhs.activity == rhs.activity && lhs.writers == rhs.writers
            && lhs.refusedReplies == rhs.refusedReplies && lhs.ruleFiles == rhs.ruleFiles
            && lhs.proposals == rhs.proposals
            && lhs.collections.holdsTheSame(as: rhs.collections)
            && lhs.facts.count == rhs.facts.count
            && lhs.facts.allSatisfy { need, fact in rhs.facts[need].map(fact.isEqual) ?? false }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(defaultBranch)
        hasher.combine(Set(facts.keys))
        hasher.combine(known)
        hasher.combine(archived)
        collections.hash(into: &hasher)
    }
}

extension Hashable {
    /// Whether `other` is this value, for facts whose types only their plugins know.
    fileprivate func isEqual(to other: any Hashable & Sendable) -> Bool {
        (other as? Self) == self
    }
}
