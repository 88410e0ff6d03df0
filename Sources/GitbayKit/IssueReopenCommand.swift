/// Reopens an issue: `issue reopen <repo> <n>`.
///
/// Reopening bumps `updated_at`, so a stale rule sees the issue as fresh afterwards.
public struct IssueReopenCommand: GitbayCommand, Hashable {
    public typealias Response = StateReply

    public static var effect: CommandEffect { .write }

    public let repository: RepositoryPath
    public let number: Int

    /// Refuses a number below 1.
    public init(repository: RepositoryPath, number: Int) throws(GitbayCommandError) {
        self.repository = repository
        self.number = try CommandValidation.number(number, field: "issue number")
    }

    public var argv: [String] { ["issue", "reopen", repository.description, String(number)] }
}
