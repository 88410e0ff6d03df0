/// Closes a merge request, optionally naming its replacement: `mr close <repo> <n> [--by <m>]`.
///
/// `--by` records `superseded_by`, which readers use to follow a replaced MR; an MR cannot supersede
/// itself.
public struct MergeRequestCloseCommand: GitbayCommand, Hashable {
    public typealias Response = StateReply

    public static var effect: CommandEffect { .write }

    public let repository: RepositoryPath
    public let number: Int
    /// The merge request that replaces this one.
    public let supersededBy: Int?

    /// Refuses numbers below 1 and an MR superseded by itself.
    public init(repository: RepositoryPath, number: Int, supersededBy: Int? = nil) throws(GitbayCommandError) {
        self.repository = repository
        self.number = try CommandValidation.number(number, field: "merge request number")
        if let supersededBy {
            _ = try CommandValidation.number(supersededBy, field: "superseding merge request number")
            guard supersededBy != number else { throw .supersededBySelf(number) }
        }
        self.supersededBy = supersededBy
    }

    public var argv: [String] {
        var argv = ["mr", "close", repository.description, String(number)]
        argv.appendOption("--by", supersededBy.map(String.init))
        return argv
    }
}
