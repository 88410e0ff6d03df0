/// Comments on a merge request, the body going through stdin: `mr comment <repo> <n> --file -`.
///
/// Sending the body on stdin (the API's `stdin` field) keeps it out of argv, where GET logs and
/// journals would show it, and lifts argv length limits.
public struct MergeRequestCommentCommand: GitbayCommand, Hashable {
    public typealias Response = NumberReply

    public static var effect: CommandEffect { .write }

    public let repository: RepositoryPath
    public let number: Int
    /// The comment text, non-blank and at most 64 KiB in UTF-8.
    public let body: String

    /// Refuses a blank or oversized body and a number below 1.
    public init(repository: RepositoryPath, number: Int, body: String) throws(GitbayCommandError) {
        self.repository = repository
        self.number = try CommandValidation.number(number, field: "merge request number")
        self.body = try CommandValidation.commentBody(body)
    }

    public var argv: [String] { ["mr", "comment", repository.description, String(number), "--file", "-"] }

    public var stdin: String? { body }
}
