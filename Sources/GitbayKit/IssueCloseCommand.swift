/// Closes an issue: `issue close <repo> <n>`.
///
/// Closing an already closed issue exits 2 ("already closed"); the applier treats that as done.
public struct IssueCloseCommand: GitbayCommand, Hashable {
    public typealias Response = StateReply

    public static var effect: CommandEffect { .write }

    public let repository: RepositoryPath
    public let number: Int

    /// Refuses a number below 1.
    public init(repository: RepositoryPath, number: Int) throws(GitbayCommandError) {
        self.repository = repository
        self.number = try CommandValidation.number(number, field: "issue number")
    }

    public var argv: [String] { ["issue", "close", repository.description, String(number)] }
}
