import Foundation

/// One row of the query-language listings (`issue list --q`, `mr list --q`, `query run`).
///
/// These are the only issue rows that carry `updated_at` and `repo`, which is why staleness rules read
/// them. `state` spans issue and merge-request states, so it is exposed raw with typed views.
public struct QueryItem: Codable, Sendable, Hashable {
    public var kind: QueryItemKind
    /// The repository the item belongs to.
    public var repo: RepositoryPath
    public var number: Int
    public var title: String
    /// `open`, `closed`, `merged` or `source_gone`, as the server wrote it.
    public var state: String
    /// Whether a merge request is a draft; always `false` for issues.
    public var draft: Bool
    public var author: String
    public var milestone: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        kind: QueryItemKind, repo: RepositoryPath, number: Int, title: String, state: String,
        draft: Bool = false, author: String, milestone: String? = nil, createdAt: Date, updatedAt: Date
    ) {
        self.kind = kind
        self.repo = repo
        self.number = number
        self.title = title
        self.state = state
        self.draft = draft
        self.author = author
        self.milestone = milestone
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The state read as an issue state.
    public var issueState: IssueState { IssueState(rawValue: state) }

    /// The state read as a merge-request state.
    public var mergeRequestState: MergeRequestState { MergeRequestState(rawValue: state) }

    private enum CodingKeys: String, CodingKey {
        case kind
        case repo
        case number
        case title
        case state
        case draft
        case author
        case milestone
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(QueryItemKind.self, forKey: .kind)
        repo = try container.decode(RepositoryPath.self, forKey: .repo)
        number = try container.decode(Int.self, forKey: .number)
        title = try container.decode(String.self, forKey: .title)
        state = try container.decode(String.self, forKey: .state)
        draft = try container.decodeFlag(forKey: .draft)
        author = try container.decode(String.self, forKey: .author)
        milestone = try container.decodeIfPresent(String.self, forKey: .milestone)
        createdAt = try container.decodeTimestamp(forKey: .createdAt)
        updatedAt = try container.decodeTimestamp(forKey: .updatedAt)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(repo, forKey: .repo)
        try container.encode(number, forKey: .number)
        try container.encode(title, forKey: .title)
        try container.encode(state, forKey: .state)
        try container.encodeFlag(draft, forKey: .draft)
        try container.encode(author, forKey: .author)
        try container.encodeIfPresent(milestone, forKey: .milestone)
        try container.encodeTimestamp(createdAt, precision: .milliseconds, forKey: .createdAt)
        try container.encodeTimestamp(updatedAt, precision: .milliseconds, forKey: .updatedAt)
    }
}
