/// Files an issue, the body going through stdin: `issue create <repo> --title t --file -`.
///
/// The bot files one issue per rule set for its run summary and then edits that issue in place;
/// the body on stdin stays out of argv and out of GET logs. Needs read access only.
public struct IssueCreateCommand: GitbayCommand, Hashable {
    public typealias Response = NumberReply

    public static var effect: CommandEffect { .write }

    public let repository: RepositoryPath
    public let title: String
    /// The body, non-blank and at most 64 KiB in UTF-8.
    public let body: String

    /// Refuses a blank title and a blank or oversized body.
    public init(repository: RepositoryPath, title: String, body: String) throws(GitbayCommandError) {
        self.repository = repository
        self.title = try CommandValidation.title(title)
        self.body = try CommandValidation.commentBody(body)
    }

    public var argv: [String] { ["issue", "create", repository.description, "--title", title, "--file", "-"] }

    public var stdin: String? { body }
}
