/// Replaces a merge request's description in place, through stdin: `mr edit <repo> <n> --file -`.
///
/// gitbay cannot edit a comment, so the plan preview the bot keeps current on a merge request
/// lives in a marked section of its description, rewritten each time. Needs the author or write access.
public struct MergeRequestEditCommand: GitbayCommand, Hashable {
    public typealias Response = NumberReply

    public static var effect: CommandEffect { .write }

    public let repository: RepositoryPath
    public let number: Int
    /// The new description, non-blank and at most 64 KiB in UTF-8.
    public let body: String

    /// Refuses a number below 1 and a blank or oversized body.
    public init(repository: RepositoryPath, number: Int, body: String) throws(GitbayCommandError) {
        self.repository = repository
        self.number = try CommandValidation.number(number, field: "merge request number")
        self.body = try CommandValidation.commentBody(body)
    }

    public var argv: [String] { ["mr", "edit", repository.description, String(number), "--file", "-"] }

    public var stdin: String? { body }
}
