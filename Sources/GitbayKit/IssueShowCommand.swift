/// Reads one issue with its labels, assignees, body and comments: `issue show <repo> <n>`.
///
/// The only way to learn an issue's labels and comments; its reply has no `updated_at`.
public struct IssueShowCommand: GitbayCommand, Hashable {
    public typealias Response = Issue

    public static var effect: CommandEffect { .read }

    public let repository: RepositoryPath
    public let number: Int

    /// Refuses a number below 1.
    public init(repository: RepositoryPath, number: Int) throws(GitbayCommandError) {
        self.repository = repository
        self.number = try CommandValidation.number(number, field: "issue number")
    }

    public var argv: [String] { ["issue", "show", repository.description, String(number)] }
}
