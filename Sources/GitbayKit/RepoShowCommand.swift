/// Reads a repository's details: `repo show <repo>`.
///
/// Gives the default branch and whether the repository is archived (archived ones refuse every write).
public struct RepoShowCommand: GitbayCommand, Hashable {
    public typealias Response = Repository

    public static var effect: CommandEffect { .read }

    public let repository: RepositoryPath

    public init(repository: RepositoryPath) {
        self.repository = repository
    }

    public var argv: [String] { ["repo", "show", repository.description] }
}
