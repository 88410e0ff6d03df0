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
        guard sha.utf8.count >= 4, sha.utf8.count <= 40, sha.allSatisfy(\.isHexDigit) else {
            throw .invalidCommit(sha)
        }
        self.repository = repository
        self.sha = sha
    }

    public var argv: [String] { ["status", "list", repository.description, sha] }
}
