import Foundation

/// One head a merge request has had, as `mr revisions` lists it: `{"n", "sha", "base_sha"?,
/// "created_at", "current"?}` (`internal/control/mr.go`, `RevisionOut`).
///
/// gitbay records one when the merge request is opened and one for every push that moves its head,
/// whoever pushed (`internal/store/mrs.go`, `CreateMR` and `UpdateMRHead`). Its `createdAt` is what
/// tells which head a comment was written against, since `mr merge` cannot be bound to a sha
/// (docs/gitbay/domain.md#revisions). Nothing in it says who pushed.
public struct MergeRequestRevision: Codable, Sendable, Hashable {
    /// The position, 1 for the oldest: `n` on the wire.
    ///
    /// The oldest is the opening head of a merge request opened after gitbay started keeping
    /// revisions; `n` is not a stored id.
    public var number: Int
    /// The head.
    public var sha: String
    /// The merge base of the target branch and this head when it was recorded; `nil` for the
    /// opening head, and whenever gitbay could not work it out.
    public var baseSHA: String?
    /// When gitbay recorded the head, in milliseconds from the server's clock, the clock that
    /// stamps comments.
    public var createdAt: Date
    /// Whether this revision's sha is the merge request's head now.
    ///
    /// gitbay compares shas, so a head pushed back to an earlier sha marks both of its revisions
    /// current; the newest revision is the head.
    public var isCurrent: Bool

    public init(number: Int, sha: String, baseSHA: String? = nil, createdAt: Date, isCurrent: Bool = false) {
        self.number = number
        self.sha = sha
        self.baseSHA = baseSHA
        self.createdAt = createdAt
        self.isCurrent = isCurrent
    }

    private enum CodingKeys: String, CodingKey {
        case number = "n"
        case sha
        case baseSHA = "base_sha"
        case createdAt = "created_at"
        case isCurrent = "current"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        number = try container.decode(Int.self, forKey: .number)
        sha = try container.decode(String.self, forKey: .sha)
        // omitempty on gitbay's side; an empty string means the same.
        baseSHA = try container.decodeIfPresent(String.self, forKey: .baseSHA).flatMap { $0.isEmpty ? nil : $0 }
        createdAt = try container.decodeTimestamp(forKey: .createdAt)
        isCurrent = try container.decodeFlag(forKey: .isCurrent)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .number)
        try container.encode(sha, forKey: .sha)
        try container.encodeIfPresent(baseSHA, forKey: .baseSHA)
        try container.encodeTimestamp(createdAt, precision: .milliseconds, forKey: .createdAt)
        try container.encodeFlag(isCurrent, forKey: .isCurrent)
    }
}
