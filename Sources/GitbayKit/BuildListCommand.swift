/// Lists a repository's builds a page at a time: `build list <repo> [--ref r] [--status s] [--job j] --limit n`.
///
/// Newest first. The superseded-build rule lists `pending` and `running` builds per ref and job;
/// filters are exact matches.
public struct BuildListCommand: PagedCommand, Hashable {
    public typealias Item = Build
    public typealias Response = Page<Build>

    public static var effect: CommandEffect { .read }

    public let repository: RepositoryPath
    /// The branch (or `refs/merge-requests/<n>/head`) to list.
    public let ref: String?
    /// One of the five statuses gitbay accepts for `--status`.
    public let status: BuildStatus?
    public let job: String?
    /// Rows per page; a value set later is clamped to 1–200.
    public var limit: Int { didSet { limit = CommandValidation.clampedLimit(limit) } }
    public var cursor: String?

    /// Refuses a status `build list` does not accept, empty filters, and limits outside 1–200.
    public init(
        repository: RepositoryPath, ref: String? = nil, status: BuildStatus? = nil, job: String? = nil,
        limit: Int = Page<Build>.maximumLimit, cursor: String? = nil
    ) throws(GitbayCommandError) {
        if let status, !status.isKnown {
            throw .unsupportedBuildStatus(status.rawValue)
        }
        self.repository = repository
        self.ref = try CommandValidation.filter(ref, flag: "--ref")
        self.status = status
        self.job = try CommandValidation.filter(job, flag: "--job")
        self.limit = try CommandValidation.limit(limit)
        self.cursor = cursor
    }

    public var argv: [String] {
        var argv = ["build", "list", repository.description]
        argv.appendOption("--ref", ref)
        argv.appendOption("--status", status?.rawValue)
        argv.appendOption("--job", job)
        return argv + pagingArguments
    }
}
