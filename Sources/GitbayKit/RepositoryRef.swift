/// One branch or tag in `repo refs`: `{"name","sha"}`.
///
/// The build rule skips cancelling a build whose sha is the tip of any other branch.
public struct RepositoryRef: Codable, Sendable, Hashable {
    /// The short name, without `refs/heads/` or `refs/tags/`.
    public var name: String
    public var sha: String

    public init(name: String, sha: String) {
        self.name = name
        self.sha = sha
    }

    private enum CodingKeys: String, CodingKey {
        case name
        case sha
    }
}
