/// Marks a merge request as a draft: `mr draft <repo> <n>`.
///
/// "already a draft" (exit 2) means the change is already in place.
public struct MergeRequestDraftCommand: GitbayCommand, Hashable {
    public typealias Response = DraftReply

    public static var effect: CommandEffect { .write }

    public let repository: RepositoryPath
    public let number: Int

    /// Refuses a number below 1.
    public init(repository: RepositoryPath, number: Int) throws(GitbayCommandError) {
        self.repository = repository
        self.number = try CommandValidation.number(number, field: "merge request number")
    }

    public var argv: [String] { ["mr", "draft", repository.description, String(number)] }
}
