/// Marks a draft merge request ready: `mr ready <repo> <n>`.
///
/// Readying retries a queued merge, so it may merge the MR at once; "already ready" (exit 2) means done.
public struct MergeRequestReadyCommand: GitbayCommand, Hashable {
    public typealias Response = DraftReply

    public static var effect: CommandEffect { .write }

    public let repository: RepositoryPath
    public let number: Int

    /// Refuses a number below 1.
    public init(repository: RepositoryPath, number: Int) throws(GitbayCommandError) {
        self.repository = repository
        self.number = try CommandValidation.number(number, field: "merge request number")
    }

    public var argv: [String] { ["mr", "ready", repository.description, String(number)] }
}
