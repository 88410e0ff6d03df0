/// Merges a merge request, or queues its merge: `mr merge <repo> <n> [--strategy s] [--when-ready]`.
///
/// With `--when-ready` gitbay merges at once when every gate passes and otherwise queues the merge
/// as the caller, retrying it whenever a gate may have changed (a review, a status, a push,
/// `mr ready`) (`internal/control/mergequeue.go`). Unmet gates without it, and a token with an
/// expiry with it, are refused with exit 4; a merged or closed merge request is exit 2.
public struct MergeRequestMergeCommand: GitbayCommand, Hashable {
    public typealias Response = MergeReply

    public static var effect: CommandEffect { .write }

    public let repository: RepositoryPath
    public let number: Int
    /// `nil` leaves the choice to gitbay: `ff` when it can, else `merge`.
    public let strategy: MergeStrategy?
    public let whenReady: Bool

    /// Refuses a number below 1.
    public init(
        repository: RepositoryPath, number: Int, strategy: MergeStrategy? = nil, whenReady: Bool = true
    ) throws(GitbayCommandError) {
        self.repository = repository
        self.number = try CommandValidation.number(number, field: "merge request number")
        self.strategy = strategy
        self.whenReady = whenReady
    }

    public var argv: [String] {
        ["mr", "merge", repository.description, String(number)] + (strategy.map { ["--strategy", $0.rawValue] } ?? [])
            + (whenReady ? ["--when-ready"] : [])
    }
}
