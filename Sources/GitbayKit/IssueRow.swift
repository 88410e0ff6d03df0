import Foundation

/// One row of plain `issue list <repo>`, which carries no labels, assignees or `updated_at`.
///
/// gitbay's list query never loads labels or assignees, so both keys are absent on list rows. They are
/// optional here so that `nil` ("not sent") is never mistaken for "has none": learn an issue's labels
/// from `issue show` (``Issue``) or with the `--label` filter, and its age from ``QueryItem``.
public struct IssueRow: Codable, Sendable, Hashable {
    /// The per-repository issue number.
    public var number: Int
    public var title: String
    public var state: IssueState
    /// The author's username.
    public var author: String
    /// The milestone title, if any.
    public var milestone: String?
    /// Always `nil` from `issue list`: the server does not send labels on list rows.
    public var labels: [String]?
    /// Always `nil` from `issue list`: the server does not send assignees on list rows.
    public var assignees: [String]?
    public var createdAt: Date

    public init(
        number: Int, title: String, state: IssueState, author: String, milestone: String? = nil,
        labels: [String]? = nil, assignees: [String]? = nil, createdAt: Date
    ) {
        self.number = number
        self.title = title
        self.state = state
        self.author = author
        self.milestone = milestone
        self.labels = labels
        self.assignees = assignees
        self.createdAt = createdAt
    }

    private enum CodingKeys: String, CodingKey {
        case number
        case title
        case state
        case author
        case milestone
        case labels
        case assignees
        case createdAt = "created_at"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        number = try container.decode(Int.self, forKey: .number)
        title = try container.decode(String.self, forKey: .title)
        state = try container.decode(IssueState.self, forKey: .state)
        author = try container.decode(String.self, forKey: .author)
        milestone = try container.decodeIfPresent(String.self, forKey: .milestone)
        labels = try container.decodeIfPresent([String].self, forKey: .labels)
        assignees = try container.decodeIfPresent([String].self, forKey: .assignees)
        createdAt = try container.decodeTimestamp(forKey: .createdAt)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .number)
        try container.encode(title, forKey: .title)
        try container.encode(state, forKey: .state)
        try container.encode(author, forKey: .author)
        try container.encodeIfPresent(milestone, forKey: .milestone)
        try container.encodeIfPresent(labels, forKey: .labels)
        try container.encodeIfPresent(assignees, forKey: .assignees)
        try container.encodeTimestamp(createdAt, precision: .milliseconds, forKey: .createdAt)
    }
}
