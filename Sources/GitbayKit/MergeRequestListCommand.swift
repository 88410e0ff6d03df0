/// Lists one repository's merge requests a page at a time: `mr list <repo> [filters] --limit n`.
///
/// Rows carry `stacked_on`, `draft` and `head_sha` but no labels. MRs have no assignees, so there is
/// no assignee filter.
public struct MergeRequestListCommand: PagedCommand, Hashable {
    public typealias Item = MergeRequestRow
    public typealias Response = Page<MergeRequestRow>

    /// The `--state` values `mr list` accepts.
    public enum StateFilter: String, Sendable, Hashable, CaseIterable {
        case open
        case merged
        case closed
        case sourceGone = "source_gone"
        case all
    }

    public static var effect: CommandEffect { .read }

    public let repository: RepositoryPath
    public let state: StateFilter
    public let label: String?
    public let author: String?
    public let milestone: MilestoneFilter?
    /// Full-text search over title and body, 2–200 bytes.
    public let search: String?
    /// Rows per page; a value set later is clamped to 1–200.
    public var limit: Int { didSet { limit = CommandValidation.clampedLimit(limit) } }
    public var cursor: String?

    /// Refuses values gitbay would answer with exit 2.
    public init(
        repository: RepositoryPath, state: StateFilter = .open, label: String? = nil, author: String? = nil,
        milestone: MilestoneFilter? = nil, search: String? = nil, limit: Int = Page<MergeRequestRow>.maximumLimit,
        cursor: String? = nil
    ) throws(GitbayCommandError) {
        self.repository = repository
        self.state = state
        self.label = try label.map { (name) throws(GitbayCommandError) in try CommandValidation.labelName(name) }
        self.author = try author.map { (name) throws(GitbayCommandError) in try CommandValidation.username(name) }
        self.milestone = try milestone?.validated()
        self.search = try CommandValidation.search(search)
        self.limit = try CommandValidation.limit(limit)
        self.cursor = cursor
    }

    public var argv: [String] {
        var argv = ["mr", "list", repository.description, "--state", state.rawValue]
        argv.appendOption("--label", label)
        argv.appendOption("--author", author)
        argv.appendOption("--milestone", milestone?.argument)
        argv.appendOption("--search", search)
        return argv + pagingArguments
    }
}
