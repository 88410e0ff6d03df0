/// Lists issues across repositories with gitbay's query language: `issue list --q "<query>" --limit n`.
///
/// The only issue listing whose rows carry `updated_at` (and `repo`), so staleness rules read it;
/// name repositories inside the query (`repo:owner/name`). A query selecting only MRs is refused.
public struct IssueQueryCommand: PagedCommand, Hashable {
    public typealias Item = QueryItem
    public typealias Response = Page<QueryItem>

    public static var effect: CommandEffect { .read }

    /// The query text, such as `repo:krz/gitbay is:open label:bug`.
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

    public var argv: [String] { ["issue", "list", "--q", query] + pagingArguments }
}
