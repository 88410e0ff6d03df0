import GitbayKit

/// What the bot knows of one repository: its items and the repository-wide facts rules consult.
public struct RepositoryState: Sendable, Hashable {
    public var path: RepositoryPath { didSet { memo = RepositoryMemo() } }
    public var defaultBranch: String? { didSet { memo = RepositoryMemo() } }
    /// Branch and tag tips; `nil` until read.
    public var refs: RepositoryRefs? { didSet { memo = RepositoryMemo() } }
    /// The dependency checker's state; `nil` until read.
    public var dependencies: DependencyStatus? { didSet { memo = RepositoryMemo() } }
    public var issues: [IssueRecord] { didSet { memo = RepositoryMemo() } }
    public var mergeRequests: [MergeRequestRecord] { didSet { memo = RepositoryMemo() } }
    public var builds: [Build] { didSet { memo = RepositoryMemo() } }
    /// Which repository-wide needs have been read (`.refs`, `.dependencies`, `.openMergeRequests`...).
    public var known: Set<ReadNeed> { didSet { memo = RepositoryMemo() } }
    /// An archived repository refuses every write (exit 4), so evaluation leaves it alone.
    public var archived: Bool
    /// What plugins derived from the state above; replaced, never edited, when any of it changes.
    public private(set) var memo = RepositoryMemo()

    public init(
        path: RepositoryPath, defaultBranch: String? = nil, refs: RepositoryRefs? = nil,
        dependencies: DependencyStatus? = nil, issues: [IssueRecord] = [], mergeRequests: [MergeRequestRecord] = [],
        builds: [Build] = [], known: Set<ReadNeed> = [], archived: Bool = false
    ) {
        self.path = path
        self.defaultBranch = defaultBranch
        self.refs = refs
        self.dependencies = dependencies
        self.issues = issues
        self.mergeRequests = mergeRequests
        self.builds = builds
        self.known = known
        self.archived = archived
    }

    /// The merge request with that number, if known.
    public func mergeRequest(_ number: Int) -> MergeRequestRecord? {
        mergeRequests.first { $0.mergeRequest.number == number }
    }
}
