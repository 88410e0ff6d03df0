/// Lists a repository's branch and tag tips: `repo refs <repo>`.
///
/// The build rule must not cancel a build whose sha is the tip of another branch.
public struct RepoRefsCommand: GitbayCommand, Hashable {
    public typealias Response = RepositoryRefs

    public static var effect: CommandEffect { .read }

    public let repository: RepositoryPath

    public init(repository: RepositoryPath) {
        self.repository = repository
    }

    public var argv: [String] { ["repo", "refs", repository.description] }
}
