import Foundation

/// A pending `mr merge --when-ready`: `{"by","strategy"?,"reason"?,"queued_at"}`.
///
/// The bot must know about it because `mr ready` retries queued merges, so readying such an MR may
/// merge it at once.
public struct QueuedMerge: Codable, Sendable, Hashable {
    /// Who queued the merge; it runs as that user.
    public var by: String
    /// `ff`, `merge`, `squash` or `rebase`, when one was asked for.
    public var strategy: String?
    /// Why the merge has not happened yet.
    public var reason: String?
    public var queuedAt: Date

    public init(by: String, strategy: String? = nil, reason: String? = nil, queuedAt: Date) {
        self.by = by
        self.strategy = strategy
        self.reason = reason
        self.queuedAt = queuedAt
    }

    private enum CodingKeys: String, CodingKey {
        case by
        case strategy
        case reason
        case queuedAt = "queued_at"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        by = try container.decode(String.self, forKey: .by)
        strategy = try container.decodeIfPresent(String.self, forKey: .strategy)
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
        queuedAt = try container.decodeTimestamp(forKey: .queuedAt)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(by, forKey: .by)
        try container.encodeIfPresent(strategy, forKey: .strategy)
        try container.encodeIfPresent(reason, forKey: .reason)
        try container.encodeTimestamp(queuedAt, precision: .milliseconds, forKey: .queuedAt)
    }
}
