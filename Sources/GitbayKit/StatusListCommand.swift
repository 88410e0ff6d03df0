/// Lists a commit's statuses with their descriptions: `status list <repo> <sha>`.
///
/// `mr show` gives a head's `checks` without their descriptions (`internal/control/output.go`
/// `CheckOut`), so whether a status the bot set still says what it said is read here.
public struct StatusListCommand: GitbayCommand, Hashable {
    public typealias Response = CommitStatuses

    public static var effect: CommandEffect { .read }

    public let repository: RepositoryPath
    public let sha: String

    /// Refuses a commit that is not 4 to 40 hex digits.
    public init(repository: RepositoryPath, sha: String) throws(GitbayCommandError) {
        self.repository = repository
        self.sha = try CommandValidation.commit(sha)
    }

    public var argv: [String] { ["status", "list", repository.description, sha] }
}
