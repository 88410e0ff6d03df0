/// Lists every head a merge request has had, oldest first: `mr revisions <repo> <n>`.
///
/// A `/merge` must merge only the head its writer saw, and `mr merge` takes no sha, so the bot
/// learns the head at the comment's time from these (``MergeRequestRevision/head(at:in:margin:)``).
/// Read-only and not paged: gitbay answers every revision at once (`internal/control/mr.go`,
/// `runMRRevisions`); read access is enough.
public struct MergeRequestRevisionsCommand: GitbayCommand, Hashable {
    public typealias Response = [MergeRequestRevision]

    public static var effect: CommandEffect { .read }

    /// gitbay turns an empty top-level list into `[]`; a `null` would mean the same.
    public static var emptyResponse: [MergeRequestRevision]? { [] }

    public let repository: RepositoryPath
    public let number: Int

    /// Refuses a number below 1.
    public init(repository: RepositoryPath, number: Int) throws(GitbayCommandError) {
        self.repository = repository
        self.number = try CommandValidation.number(number, field: "merge request number")
    }

    public var argv: [String] { ["mr", "revisions", repository.description, String(number)] }
}
