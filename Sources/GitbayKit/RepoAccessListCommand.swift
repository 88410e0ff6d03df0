/// Who may do what on a repository: `repo access list <repo>`, the one read that tells another
/// account's role.
///
/// gitbay answers it only to a token that may administer the repository (`policy.CanAdmin` in
/// `internal/control/repo.go`, `runAccessList`); any other gets exit 4, and the bot then takes the
/// writers from its configuration. `whoami` tells only the caller's own account.
public struct RepoAccessListCommand: GitbayCommand, Hashable {
    public typealias Response = [AccessGrant]

    public static var effect: CommandEffect { .read }

    /// `null`, when nobody holds a grant, reads as none.
    public static var emptyResponse: [AccessGrant]? { [] }

    public let repository: RepositoryPath

    public init(repository: RepositoryPath) {
        self.repository = repository
    }

    public var argv: [String] { ["repo", "access", "list", repository.description] }
}
