/// Lists every repository the caller owns or can access: `repo list --limit n [--cursor c]`.
///
/// There is no org filter on the server; the bot filters by path owner. The cursor is keyed by path.
public struct RepoListCommand: PagedCommand, Hashable {
    public typealias Item = RepositorySummary
    public typealias Response = Page<RepositorySummary>

    public static var effect: CommandEffect { .read }

    /// Rows per page; a value set later is clamped to 1–200.
    public var limit: Int { didSet { limit = CommandValidation.clampedLimit(limit) } }
    public var cursor: String?

    /// Refuses a limit outside 1–200.
    public init(limit: Int = Page<RepositorySummary>.maximumLimit, cursor: String? = nil) throws(GitbayCommandError) {
        self.limit = try CommandValidation.limit(limit)
        self.cursor = cursor
    }

    public var argv: [String] { ["repo", "list"] + pagingArguments }
}
