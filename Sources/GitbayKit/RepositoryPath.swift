/// A repository's `owner/name`, validated so a typed command can never render a malformed path.
///
/// gitbay resolves repositories by this exact path; a leading `-` would read as a flag and a space
/// or a third segment can never name a repository, so such values are refused at construction.
public struct RepositoryPath: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The user or organisation that owns the repository.
    public let owner: String
    /// The repository's name within its owner.
    public let name: String

    /// Validates the two segments separately.
    public init(owner: String, name: String) throws(GitbayCommandError) {
        let path = "\(owner)/\(name)"
        for segment in [owner, name] {
            if segment.isEmpty {
                throw .invalidRepositoryPath(path, reason: "owner and name must both be non-empty")
            }
            if segment.contains("/") {
                throw .invalidRepositoryPath(path, reason: "expected exactly one '/'")
            }
            if segment.contains(where: \.isWhitespace) {
                throw .invalidRepositoryPath(path, reason: "whitespace is not allowed")
            }
            if segment.hasPrefix("-") {
                throw .invalidRepositoryPath(path, reason: "a segment must not start with '-'")
            }
        }
        self.owner = owner
        self.name = name
    }

    /// Parses `owner/name`.
    public init(_ path: String) throws(GitbayCommandError) {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count == 2 else {
            throw .invalidRepositoryPath(path, reason: "expected owner/name with exactly one '/'")
        }
        try self.init(owner: String(segments[0]), name: String(segments[1]))
    }

    public var description: String { "\(owner)/\(name)" }

    public static func < (lhs: RepositoryPath, rhs: RepositoryPath) -> Bool {
        lhs.description < rhs.description
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
