/// Lists a repository's labels, organisation labels first: `label list <repo>`.
///
/// Lets a rule check a label exists (and its colour) before adding it; the reply is a bare array.
public struct LabelListCommand: GitbayCommand, Hashable {
    public typealias Response = [IssueLabel]

    public static var effect: CommandEffect { .read }

    public let repository: RepositoryPath

    public init(repository: RepositoryPath) {
        self.repository = repository
    }

    public var argv: [String] { ["label", "list", repository.description] }
}
