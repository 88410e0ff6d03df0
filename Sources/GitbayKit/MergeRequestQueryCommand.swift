/// Lists merge requests across repositories with the query language: `mr list --q "<query>" --limit n`.
///
/// Its rows carry `repo` and `updated_at`, which plain `mr list` rows lack; name repositories inside
/// the query (`repo:owner/name`). A query selecting only issues is refused.
public struct MergeRequestQueryCommand: PagedCommand, Hashable {
    public typealias Item = QueryItem
    public typealias Response = Page<QueryItem>

    public static var effect: CommandEffect { .read }

    /// The query text, such as `repo:krz/gitbay is:open label:ci`.
    public let query: String
    /// Rows per page; a value set later is clamped to 1–200.
    public var limit: Int { didSet { limit = CommandValidation.clampedLimit(limit) } }
    public var cursor: String?

    /// Refuses a blank query or a limit outside 1–200.
    public init(
        query: String, limit: Int = Page<QueryItem>.maximumLimit, cursor: String? = nil
    )
        throws(GitbayCommandError)
    {
        self.query = try CommandValidation.query(query)
        self.limit = try CommandValidation.limit(limit)
        self.cursor = cursor
    }

    public var argv: [String] { ["mr", "list", "--q", query] + pagingArguments }
}
