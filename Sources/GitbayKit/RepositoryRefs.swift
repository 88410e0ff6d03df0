/// The branch and tag tips of a repository, as `repo refs` returns them.
///
/// Builds belong to commits, and one build stands for the same sha on every ref, so the build rule
/// must know every branch tip before cancelling anything.
public struct RepositoryRefs: Codable, Sendable, Hashable {
    public var branches: [RepositoryRef]
    public var tags: [RepositoryRef]

    public init(branches: [RepositoryRef] = [], tags: [RepositoryRef] = []) {
        self.branches = branches
        self.tags = tags
    }

    private enum CodingKeys: String, CodingKey {
        case branches
        case tags
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        branches = try container.decodeList(RepositoryRef.self, forKey: .branches)
        tags = try container.decodeList(RepositoryRef.self, forKey: .tags)
    }
}
