/// What `mr merge` answers: merged at once (`{"number","strategy","sha"}`, the strategy
/// `recorded` when the head was already on the target), or, with `--when-ready`, queued behind
/// the gates it names (`{"number","queued":true,"strategy","reason"}`) (`internal/control/mr.go`,
/// `internal/control/mergequeue.go`).
public struct MergeReply: Codable, Sendable, Hashable {
    public var number: Int
    /// The strategy used or queued; `recorded` for a head already on the target.
    public var strategy: String?
    /// The merge's commit, when it merged.
    public var sha: String?
    /// Whether it was queued rather than merged.
    public var queued: Bool?
    /// Why a queued merge waits: the gates not yet met.
    public var reason: String?

    public init(number: Int, strategy: String? = nil, sha: String? = nil, queued: Bool? = nil, reason: String? = nil) {
        self.number = number
        self.strategy = strategy
        self.sha = sha
        self.queued = queued
        self.reason = reason
    }

    /// Whether the merge waits in gitbay's queue rather than having happened.
    public var isQueued: Bool { queued == true }
}
