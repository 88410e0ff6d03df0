/// Reads one merge request with checks, reviews, comments and gates: `mr show <repo> <n>`.
///
/// The stacked-ready rule confirms a landed parent and the retarget comment through it.
public struct MergeRequestShowCommand: GitbayCommand, Hashable {
    public typealias Response = MergeRequest

    public static var effect: CommandEffect { .read }

    public let repository: RepositoryPath
    public let number: Int

    /// Refuses a number below 1.
    public init(repository: RepositoryPath, number: Int) throws(GitbayCommandError) {
        self.repository = repository
        self.number = try CommandValidation.number(number, field: "merge request number")
    }

    public var argv: [String] { ["mr", "show", repository.description, String(number)] }
}
