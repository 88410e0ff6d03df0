/// One row of `repo list`: `{"path","visibility","description"?,"archived"?}`.
///
/// There is no org filter on the server, so the bot discovers an org's repositories by filtering
/// ``path`` by owner; archived repositories refuse every write, so rules skip them.
public struct RepositorySummary: Codable, Sendable, Hashable {
    public var path: RepositoryPath
    public var visibility: RepositoryVisibility
    public var description: String?
    /// Whether the repository is archived (absent means not).
    public var archived: Bool

    public init(
        path: RepositoryPath, visibility: RepositoryVisibility, description: String? = nil, archived: Bool = false
    ) {
        self.path = path
        self.visibility = visibility
        self.description = description
        self.archived = archived
    }

    private enum CodingKeys: String, CodingKey {
        case path
        case visibility
        case description
        case archived
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(RepositoryPath.self, forKey: .path)
        visibility = try container.decode(RepositoryVisibility.self, forKey: .visibility)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        archived = try container.decodeFlag(forKey: .archived)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(visibility, forKey: .visibility)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encodeFlag(archived, forKey: .archived)
    }
}
