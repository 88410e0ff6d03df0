/// One status of `status list`: `{"context","state","description"?,"url"?,"creator"?}`.
///
/// Unlike an MR's `checks`, it carries the description, which is how the bot tells whether the
/// status it set still says what its rule says.
public struct CommitStatus: Codable, Sendable, Hashable {
    public var context: String
    public var state: CheckState
    /// Empty when none was given; gitbay leaves an empty one out.
    public var description: String
    public var url: String?
    /// The account that set it.
    public var creator: String?

    public init(
        context: String, state: CheckState, description: String = "", url: String? = nil, creator: String? = nil
    ) {
        self.context = context
        self.state = state
        self.description = description
        self.url = url
        self.creator = creator
    }

    private enum CodingKeys: String, CodingKey {
        case context
        case state
        case description
        case url
        case creator
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        context = try container.decode(String.self, forKey: .context)
        state = try container.decode(CheckState.self, forKey: .state)
        description = try container.decodeIfPresent(String.self, forKey: .description) ?? ""
        url = try container.decodeIfPresent(String.self, forKey: .url)
        creator = try container.decodeIfPresent(String.self, forKey: .creator)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(context, forKey: .context)
        try container.encode(state, forKey: .state)
        if !description.isEmpty { try container.encode(description, forKey: .description) }
        try container.encodeIfPresent(url, forKey: .url)
        try container.encodeIfPresent(creator, forKey: .creator)
    }
}
