import Foundation

/// One event of the activity feed (`feed`): something done on a repository the account can reach.
///
/// gitbay's `FeedOut` (`internal/control/dashboard.go`): an increasing `id` (the feed's cursor key),
/// the repository, who did it (absent for the server itself), the event kind (`issue.commented`,
/// `mr.merged`...; the list is `internal/control/events.go`) and its `data`, per kind as in
/// docs/gitbay/protocol.md#events. The feed never shows `push` (docs/gitbay/protocol.md#feed). The bot takes
/// `number` from the data when there is one (a build event's is a build number) and otherwise treats the
/// event as concerning the whole repository.
public struct FeedEvent: Codable, Sendable, Hashable {
    public var id: Int
    public var repo: RepositoryPath
    public var actor: String?
    public var kind: String
    /// The item the event is about, from `data.number`, when the data names one.
    public var number: Int?
    public var createdAt: Date
    /// A `*.labeled` event's label set after the change, from `data.labels` (gitbay records the
    /// whole list, `[]` when none is left: `internal/control/issue.go` `runIssueLabel`).
    public var labels: [String]?

    /// The part of the kind before its dot: `issue`, `mr`, `build`, `push`, `status`...
    public var family: String { Self.family(of: kind) }

    /// The family of events of `kind`: the part before its dot.
    public static func family(of kind: String) -> String {
        kind.split(separator: ".", maxSplits: 1).first.map(String.init) ?? kind
    }

    public init(
        id: Int, repo: RepositoryPath, actor: String?, kind: String, number: Int?, createdAt: Date,
        labels: [String]? = nil
    ) {
        self.labels = labels
        self.id = id
        self.repo = repo
        self.actor = actor
        self.kind = kind
        self.number = number
        self.createdAt = createdAt
    }

    private enum CodingKeys: String, CodingKey {
        case id, repo, actor, kind, data
        case createdAt = "created_at"
    }

    private struct Number: Decodable {
        var number: Int?
    }

    private struct Labels: Decodable {
        var labels: [String]?
    }

    /// The part of `data` the bot reads, written back as the feed sends it (a forge-state file's
    /// `events`).
    private struct Written: Encodable {
        var number: Int?
        var labels: [String]?
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(repo, forKey: .repo)
        try container.encodeIfPresent(actor, forKey: .actor)
        try container.encode(kind, forKey: .kind)
        try container.encode(Written(number: number, labels: labels), forKey: .data)
        try container.encode(GitbayTimestamp.format(createdAt, precision: .milliseconds), forKey: .createdAt)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        repo = try container.decode(RepositoryPath.self, forKey: .repo)
        actor = try container.decodeIfPresent(String.self, forKey: .actor)
        kind = try container.decode(String.self, forKey: .kind)
        // Data of a shape the bot does not know is not an error: the event then names no item.
        number = (try? container.decodeIfPresent(Number.self, forKey: .data))?.number
        labels = (try? container.decodeIfPresent(Labels.self, forKey: .data))?.labels
        createdAt = try container.decodeTimestamp(forKey: .createdAt)
    }
}
