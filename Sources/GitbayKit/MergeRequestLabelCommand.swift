/// Adds and removes labels on a merge request: `mr label <repo> <n> [--add l]... [--remove l]...`.
///
/// Issues and MRs share one label set. Adding is idempotent, but removing a label the MR lacks fails,
/// so the applier re-checks before removing.
public struct MergeRequestLabelCommand: GitbayCommand, Hashable {
    public typealias Response = LabelsReply

    public static var effect: CommandEffect { .write }

    public let repository: RepositoryPath
    public let number: Int
    /// Labels to add, in order.
    public let add: [String]
    /// Labels to remove, in order.
    public let remove: [String]

    /// Refuses an empty change, a number below 1 and label names gitbay refuses.
    public init(
        repository: RepositoryPath, number: Int, add: [String] = [], remove: [String] = []
    )
        throws(GitbayCommandError)
    {
        guard !add.isEmpty || !remove.isEmpty else { throw .emptyLabelChange }
        self.repository = repository
        self.number = try CommandValidation.number(number, field: "merge request number")
        self.add = try CommandValidation.labelNames(add)
        self.remove = try CommandValidation.labelNames(remove)
    }

    public var argv: [String] {
        var argv = ["mr", "label", repository.description, String(number)]
        argv.appendRepeated("--add", add)
        argv.appendRepeated("--remove", remove)
        return argv
    }
}
