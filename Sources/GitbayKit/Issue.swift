import Foundation

/// One issue as `issue show <repo> <n>` returns it, plus the `updated_at` a forge-state file keeps.
///
/// `issue show` sends labels, assignees and comments (each omitempty, so absent or `null` means none)
/// but never `updated_at`; that time is learnt from ``QueryItem`` rows and stored here so the engine
/// can judge staleness from one value.
public struct Issue: Codable, Sendable, Hashable {
    public var number: Int
    public var title: String
    public var state: IssueState
    public var author: String
    public var milestone: String?
    /// Label names; empty when the issue has none.
    public var labels: [String]
    /// Assigned usernames; empty when nobody is assigned.
    public var assignees: [String]
    public var body: String?
    public var bodyFormat: BodyFormat?
    /// Comments oldest first, including system comments.
    public var comments: [Comment]
    /// Who reacted how to the item itself, `me` saying whether the bot did (`internal/control/react.go`).
    public var reactions: [ReactionCount] = []
    public var createdAt: Date
    /// Last update: NOT sent by `issue show`; present in forge-state files and learnt from query rows.
    public var updatedAt: Date?

    public init(
        number: Int, title: String, state: IssueState, author: String, milestone: String? = nil,
        labels: [String] = [], assignees: [String] = [], body: String? = nil, bodyFormat: BodyFormat? = nil,
        comments: [Comment] = [], createdAt: Date, updatedAt: Date? = nil
    ) {
        self.number = number
        self.title = title
        self.state = state
        self.author = author
        self.milestone = milestone
        self.labels = labels
        self.assignees = assignees
        self.body = body
        self.bodyFormat = bodyFormat
        self.comments = comments
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    private enum CodingKeys: String, CodingKey {
        case number
        case title
        case state
        case author
        case milestone
        case labels
        case assignees
        case body
        case bodyFormat = "body_format"
        case comments
        case reactions
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        number = try container.decode(Int.self, forKey: .number)
        title = try container.decode(String.self, forKey: .title)
        state = try container.decode(IssueState.self, forKey: .state)
        author = try container.decode(String.self, forKey: .author)
        milestone = try container.decodeIfPresent(String.self, forKey: .milestone)
        labels = try container.decodeList(String.self, forKey: .labels)
        assignees = try container.decodeList(String.self, forKey: .assignees)
        body = try container.decodeIfPresent(String.self, forKey: .body)
        bodyFormat = try container.decodeIfPresent(BodyFormat.self, forKey: .bodyFormat)
        comments = try container.decodeList(Comment.self, forKey: .comments)
        reactions = try container.decodeList(ReactionCount.self, forKey: .reactions)
        createdAt = try container.decodeTimestamp(forKey: .createdAt)
        updatedAt = try container.decodeTimestampIfPresent(forKey: .updatedAt)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .number)
        try container.encode(title, forKey: .title)
        try container.encode(state, forKey: .state)
        try container.encode(author, forKey: .author)
        try container.encodeIfPresent(milestone, forKey: .milestone)
        try container.encodeListIfNotEmpty(labels, forKey: .labels)
        try container.encodeListIfNotEmpty(assignees, forKey: .assignees)
        try container.encodeIfPresent(body, forKey: .body)
        try container.encodeIfPresent(bodyFormat, forKey: .bodyFormat)
        try container.encodeListIfNotEmpty(comments, forKey: .comments)
        try container.encodeListIfNotEmpty(reactions, forKey: .reactions)
        try container.encodeTimestamp(createdAt, precision: .milliseconds, forKey: .createdAt)
        try container.encodeTimestampIfPresent(updatedAt, precision: .milliseconds, forKey: .updatedAt)
    }
}
