import Foundation

/// A comment on an issue or a merge request, as `issue show` and `mr show` list them.
///
/// The stacked-MR rule looks for the server's `retargeted from A to B: !N merged` system comment, so
/// telling system comments apart matters. gitbay marks them only by the author `system`: its
/// `commentOut` keeps `kind` off the wire (`internal/control/thread.go`, `json:"-"`); ``isSystem``
/// still honours a `kind` should a server send one.
public struct Comment: Codable, Sendable, Hashable {
    /// The comment's id; `nil` from servers that predate it.
    ///
    /// It is the row of gitbay's comments table, unique among one kind's comments forge-wide (an
    /// issue's and a merge request's may share one) (`internal/control/issue.go`, `runIssueShow`).
    /// A command is done once per id.
    public var id: Int?
    /// The author's username, or the literal `system` for server-written comments.
    public var author: String
    public var body: String
    public var bodyFormat: BodyFormat?
    public var createdAt: Date
    /// `comment` or `system`; `nil` from servers that predate the field.
    public var kind: CommentKind?
    /// Who reacted how, `me` saying whether the caller did (`internal/control/react.go`,
    /// `ReactionOut`); empty when nobody did or the server predates reactions.
    public var reactions: [ReactionCount]

    public init(
        author: String, body: String, bodyFormat: BodyFormat? = nil, createdAt: Date, kind: CommentKind? = nil,
        id: Int? = nil, reactions: [ReactionCount] = []
    ) {
        self.id = id
        self.reactions = reactions
        self.author = author
        self.body = body
        self.bodyFormat = bodyFormat
        self.createdAt = createdAt
        self.kind = kind
    }

    /// Whether the server wrote this comment: `kind` when sent, otherwise the author `system`.
    public var isSystem: Bool {
        if let kind {
            return kind == .system
        }
        return author == "system"
    }

    private enum CodingKeys: String, CodingKey {
        case author
        case body
        case bodyFormat = "body_format"
        case createdAt = "created_at"
        case kind
        case id
        case reactions
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        author = try container.decode(String.self, forKey: .author)
        body = try container.decode(String.self, forKey: .body)
        bodyFormat = try container.decodeIfPresent(BodyFormat.self, forKey: .bodyFormat)
        createdAt = try container.decodeTimestamp(forKey: .createdAt)
        kind = try container.decodeIfPresent(CommentKind.self, forKey: .kind)
        id = try container.decodeIfPresent(Int.self, forKey: .id)
        reactions = try container.decodeIfPresent([ReactionCount].self, forKey: .reactions) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(author, forKey: .author)
        try container.encode(body, forKey: .body)
        try container.encodeIfPresent(bodyFormat, forKey: .bodyFormat)
        try container.encodeTimestamp(createdAt, precision: .milliseconds, forKey: .createdAt)
        try container.encodeIfPresent(kind, forKey: .kind)
        try container.encodeIfPresent(id, forKey: .id)
        if !reactions.isEmpty { try container.encode(reactions, forKey: .reactions) }
    }
}
