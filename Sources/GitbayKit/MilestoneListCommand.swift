/// Lists a repository's milestones with their issue counts: `milestone list <repo> --state s`.
///
/// A snapshot of a forge keeps its milestones so that `issue milestone` behaves offline as it does
/// live (an unknown title exits 3); the reply is a bare array, not a page.
public struct MilestoneListCommand: GitbayCommand, Hashable {
    public typealias Response = [Milestone]

    /// The `--state` values `milestone list` accepts.
    public enum StateFilter: String, Sendable, Hashable, CaseIterable {
        case open
        case closed
        case all
    }

    public static var effect: CommandEffect { .read }

    /// gitbay answers `[]` for a repository without milestones (docs/gitbay/domain.md#milestones); a `null`
    /// is read the same way.
    public static var emptyResponse: [Milestone]? { [] }

    public let repository: RepositoryPath
    public let state: StateFilter

    public init(repository: RepositoryPath, state: StateFilter = .open) {
        self.repository = repository
        self.state = state
    }

    public var argv: [String] { ["milestone", "list", repository.description, "--state", state.rawValue] }
}
