import GitbayKit

/// `milestone close|reopen <owner/name> <title>`: a write; an organisation's milestone is refused
/// with exit 1, since it belongs to `org milestone close <org> <title>` (`internal/control/milestone.go`).
public struct MilestoneStateCommand: GitbayCommand, Hashable {
    /// Which way the milestone goes.
    public enum Change: String, Sendable, Hashable {
        case close
        case reopen
    }

    /// `{"milestone": title, "state": "closed"|"open"}`.
    public struct Reply: Decodable, Sendable, Hashable {
        public var milestone: String
        public var state: String
    }

    public typealias Response = Reply

    public static var effect: CommandEffect { .write }

    public let change: Change
    public let repository: RepositoryPath
    public let title: String

    public init(_ change: Change, repository: RepositoryPath, title: String) {
        self.change = change
        self.repository = repository
        self.title = title
    }

    public var argv: [String] { ["milestone", change.rawValue, repository.description, title] }
}
