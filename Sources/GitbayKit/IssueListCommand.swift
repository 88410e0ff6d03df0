/// Lists one repository's issues a page at a time: `issue list <repo> [filters] --limit n [--cursor c]`.
///
/// Rows are in descending number order and carry neither labels nor `updated_at`; use
/// ``IssueQueryCommand`` when a rule needs either. Filters are exact and take one value each.
public struct IssueListCommand: PagedCommand, Hashable {
    public typealias Item = IssueRow
    public typealias Response = Page<IssueRow>

    /// The `--state` values `issue list` accepts.
    public enum StateFilter: String, Sendable, Hashable, CaseIterable {
        case open
        case closed
        case all
    }

    public static var effect: CommandEffect { .read }

    public let repository: RepositoryPath
    public let state: StateFilter
    /// One label name, exact (organisation labels included).
    public let label: String?
    public let assignee: String?
    public let author: String?
    public let milestone: MilestoneFilter?
    /// Full-text search over title and body, 2–200 bytes.
    public let search: String?
    /// Rows per page; a value set later is clamped to 1–200.
    public var limit: Int { didSet { limit = CommandValidation.clampedLimit(limit) } }
    public var cursor: String?

    /// Refuses values gitbay would answer with exit 2.
    public init(
        repository: RepositoryPath, state: StateFilter = .open, label: String? = nil, assignee: String? = nil,
        author: String? = nil, milestone: MilestoneFilter? = nil, search: String? = nil,
        limit: Int = Page<IssueRow>.maximumLimit, cursor: String? = nil
    ) throws(GitbayCommandError) {
        self.repository = repository
        self.state = state
        self.label = try label.map { (name) throws(GitbayCommandError) in try CommandValidation.labelName(name) }
        self.assignee = try assignee.map { (name) throws(GitbayCommandError) in try CommandValidation.username(name) }
        self.author = try author.map { (name) throws(GitbayCommandError) in try CommandValidation.username(name) }
        self.milestone = try milestone?.validated()
        self.search = try CommandValidation.search(search)
        self.limit = try CommandValidation.limit(limit)
        self.cursor = cursor
    }

    public var argv: [String] {
        var argv = ["issue", "list", repository.description, "--state", state.rawValue]
        argv.appendOption("--label", label)
        argv.appendOption("--assignee", assignee)
        argv.appendOption("--author", author)
        argv.appendOption("--milestone", milestone?.argument)
        argv.appendOption("--search", search)
        return argv + pagingArguments
    }
}
