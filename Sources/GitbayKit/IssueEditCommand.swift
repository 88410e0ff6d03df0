/// Replaces an issue's body in place, through stdin: `issue edit <repo> <n> --file -`.
///
/// gitbay has no command to edit a comment, so text the bot keeps up to date (its run summary)
/// lives in an issue body it rewrites each run. Needs the author or write access; bumps `updated_at`.
public struct IssueEditCommand: GitbayCommand, Hashable {
    public typealias Response = NumberReply

    public static var effect: CommandEffect { .write }

    public let repository: RepositoryPath
    public let number: Int
    /// The new body, non-blank and at most 64 KiB in UTF-8.
    public let body: String

    /// Refuses a number below 1 and a blank or oversized body.
    public init(repository: RepositoryPath, number: Int, body: String) throws(GitbayCommandError) {
        self.repository = repository
        self.number = try CommandValidation.number(number, field: "issue number")
        self.body = try CommandValidation.commentBody(body)
    }

    public var argv: [String] { ["issue", "edit", repository.description, String(number), "--file", "-"] }

    public var stdin: String? { body }
}
