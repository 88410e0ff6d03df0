/// Adds and removes assignees on an issue: `issue assign <repo> <n> [--add u]... [--remove u]...`.
///
/// An unknown user, or removing someone who is not assigned, exits 3; assigning does not bump
/// `updated_at`.
public struct IssueAssignCommand: GitbayCommand, Hashable {
    public typealias Response = AssigneesReply

    public static var effect: CommandEffect { .write }

    public let repository: RepositoryPath
    public let number: Int
    /// Usernames to assign, in order.
    public let add: [String]
    /// Usernames to unassign, in order.
    public let remove: [String]

    /// Refuses an empty change, a number below 1 and malformed usernames.
    public init(
        repository: RepositoryPath, number: Int, add: [String] = [], remove: [String] = []
    )
        throws(GitbayCommandError)
    {
        guard !add.isEmpty || !remove.isEmpty else { throw .emptyAssigneeChange }
        self.repository = repository
        self.number = try CommandValidation.number(number, field: "issue number")
        for name in add + remove {
            _ = try CommandValidation.username(name)
        }
        self.add = add
        self.remove = remove
    }

    public var argv: [String] {
        var argv = ["issue", "assign", repository.description, String(number)]
        argv.appendRepeated("--add", add)
        argv.appendRepeated("--remove", remove)
        return argv
    }
}
