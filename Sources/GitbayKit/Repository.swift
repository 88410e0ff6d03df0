/// One repository as `repo show` returns it; all fields but path, visibility and default branch are omitempty.
///
/// The default branch is where scheduled and triggered builds run, and archived repositories refuse
/// every write. Absent `fork_of` does NOT mean "not a fork": a parent the caller cannot read is hidden.
public struct Repository: Codable, Sendable, Hashable {
    public var path: RepositoryPath
    public var description: String?
    public var website: String?
    public var visibility: RepositoryVisibility
    public var defaultBranch: String
    public var protectedBranches: [String]
    /// Whether the repository is archived (absent means not).
    public var archived: Bool
    public var topics: [String]
    /// Verified pages domains.
    public var domains: [String]
    /// Mirrors; sent to admins only.
    public var mirrors: [RepositoryMirror]
    /// The parent repository, only when the caller can read it.
    public var forkOf: String?
    /// The caller's watch state: `watching`, `muted`, or `nil`.
    public var watch: String?
    /// Whether the caller bookmarked the repository (absent means not).
    public var bookmarked: Bool

    public init(
        path: RepositoryPath, description: String? = nil, website: String? = nil, visibility: RepositoryVisibility,
        defaultBranch: String, protectedBranches: [String] = [], archived: Bool = false, topics: [String] = [],
        domains: [String] = [], mirrors: [RepositoryMirror] = [], forkOf: String? = nil, watch: String? = nil,
        bookmarked: Bool = false
    ) {
        self.path = path
        self.description = description
        self.website = website
        self.visibility = visibility
        self.defaultBranch = defaultBranch
        self.protectedBranches = protectedBranches
        self.archived = archived
        self.topics = topics
        self.domains = domains
        self.mirrors = mirrors
        self.forkOf = forkOf
        self.watch = watch
        self.bookmarked = bookmarked
    }

    private enum CodingKeys: String, CodingKey {
        case path
        case description
        case website
        case visibility
        case defaultBranch = "default_branch"
        case protectedBranches = "protected_branches"
        case archived
        case topics
        case domains
        case mirrors
        case forkOf = "fork_of"
        case watch
        case bookmarked
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(RepositoryPath.self, forKey: .path)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        website = try container.decodeIfPresent(String.self, forKey: .website)
        visibility = try container.decode(RepositoryVisibility.self, forKey: .visibility)
        defaultBranch = try container.decode(String.self, forKey: .defaultBranch)
        protectedBranches = try container.decodeList(String.self, forKey: .protectedBranches)
        archived = try container.decodeFlag(forKey: .archived)
        topics = try container.decodeList(String.self, forKey: .topics)
        domains = try container.decodeList(String.self, forKey: .domains)
        mirrors = try container.decodeList(RepositoryMirror.self, forKey: .mirrors)
        forkOf = try container.decodeIfPresent(String.self, forKey: .forkOf)
        watch = try container.decodeIfPresent(String.self, forKey: .watch)
        bookmarked = try container.decodeFlag(forKey: .bookmarked)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encodeIfPresent(website, forKey: .website)
        try container.encode(visibility, forKey: .visibility)
        try container.encode(defaultBranch, forKey: .defaultBranch)
        try container.encodeListIfNotEmpty(protectedBranches, forKey: .protectedBranches)
        try container.encodeFlag(archived, forKey: .archived)
        try container.encodeListIfNotEmpty(topics, forKey: .topics)
        try container.encodeListIfNotEmpty(domains, forKey: .domains)
        try container.encodeListIfNotEmpty(mirrors, forKey: .mirrors)
        try container.encodeIfPresent(forkOf, forKey: .forkOf)
        try container.encodeIfPresent(watch, forKey: .watch)
        try container.encodeFlag(bookmarked, forKey: .bookmarked)
    }
}
