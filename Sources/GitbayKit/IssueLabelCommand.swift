/// Adds and removes labels on an issue: `issue label <repo> <n> [--add l]... [--remove l]...`.
///
/// Adding is idempotent (and creates a missing repository label), but removing a label the issue
/// lacks exits 3, so the applier re-checks before removing. Labelling does not bump `updated_at`.
public struct IssueLabelCommand: GitbayCommand, Hashable {
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
        self.number = try CommandValidation.number(number, field: "issue number")
        self.add = try CommandValidation.labelNames(add)
        self.remove = try CommandValidation.labelNames(remove)
    }

    public var argv: [String] {
        var argv = ["issue", "label", repository.description, String(number)]
        argv.appendRepeated("--add", add)
        argv.appendRepeated("--remove", remove)
        return argv
    }
}
