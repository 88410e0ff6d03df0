import Foundation

/// One review in `mr show`: `{"reviewer","verdict","stale","counts","created_at"}`.
///
/// `counts` is true only when the reviewer has write access, so only those approvals satisfy gates;
/// older servers do not send it, hence optional. `stale` reviews predate the current head.
public struct Review: Codable, Sendable, Hashable {
    public var reviewer: String
    public var verdict: ReviewVerdict
    /// Whether the head moved since the review; absent is read as `false`.
    public var stale: Bool
    /// Whether the review counts toward approval gates; `nil` from servers that predate the field.
    public var counts: Bool?
    public var createdAt: Date

    public init(reviewer: String, verdict: ReviewVerdict, stale: Bool = false, counts: Bool? = nil, createdAt: Date) {
        self.reviewer = reviewer
        self.verdict = verdict
        self.stale = stale
        self.counts = counts
        self.createdAt = createdAt
    }

    private enum CodingKeys: String, CodingKey {
        case reviewer
        case verdict
        case stale
        case counts
        case createdAt = "created_at"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        reviewer = try container.decode(String.self, forKey: .reviewer)
        verdict = try container.decode(ReviewVerdict.self, forKey: .verdict)
        stale = try container.decodeFlag(forKey: .stale)
        counts = try container.decodeIfPresent(Bool.self, forKey: .counts)
        createdAt = try container.decodeTimestamp(forKey: .createdAt)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(reviewer, forKey: .reviewer)
        try container.encode(verdict, forKey: .verdict)
        try container.encode(stale, forKey: .stale)
        try container.encodeIfPresent(counts, forKey: .counts)
        try container.encodeTimestamp(createdAt, precision: .milliseconds, forKey: .createdAt)
    }
}
