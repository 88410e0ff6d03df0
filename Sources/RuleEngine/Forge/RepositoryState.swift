import GitbayKit

/// What the bot knows of one repository: its items and the repository-wide facts rules consult.
public struct RepositoryState: Sendable, Hashable {
    public var path: RepositoryPath
    public var defaultBranch: String?
    /// Branch and tag tips; `nil` until read.
    public var refs: RepositoryRefs?
    /// The dependency checker's state; `nil` until read.
    public var dependencies: DependencyStatus?
    public var issues: [IssueRecord]
    public var mergeRequests: [MergeRequestRecord]
    public var builds: [Build]
    /// Which repository-wide needs have been read (`.refs`, `.dependencies`, `.openMergeRequests`...).
    public var known: Set<ReadNeed>

    public init(
        path: RepositoryPath, defaultBranch: String? = nil, refs: RepositoryRefs? = nil,
        dependencies: DependencyStatus? = nil, issues: [IssueRecord] = [], mergeRequests: [MergeRequestRecord] = [],
        builds: [Build] = [], known: Set<ReadNeed> = []
    ) {
        self.path = path
        self.defaultBranch = defaultBranch
        self.refs = refs
        self.dependencies = dependencies
        self.issues = issues
        self.mergeRequests = mergeRequests
        self.builds = builds
        self.known = known
    }

    /// The merge request with that number, if known.
    public func mergeRequest(_ number: Int) -> MergeRequestRecord? {
        mergeRequests.first { $0.mergeRequest.number == number }
    }
}
