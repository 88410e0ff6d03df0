/// Reads the dependency checker's state: `repo deps status <repo>`.
///
/// Names the checker's tracking issue, which stale-issue rules must leave alone.
public struct RepoDepsStatusCommand: GitbayCommand, Hashable {
    public typealias Response = DependencyStatus

    public static var effect: CommandEffect { .read }

    public let repository: RepositoryPath

    public init(repository: RepositoryPath) {
        self.repository = repository
    }

    public var argv: [String] { ["repo", "deps", "status", repository.description] }
}
