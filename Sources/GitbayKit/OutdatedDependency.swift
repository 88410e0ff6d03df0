/// One dependency the checker found behind: `{"ecosystem","name","current","latest"}`.
///
/// Part of ``DependencyStatus``; the checker keeps its own tracking issue up to date with these.
public struct OutdatedDependency: Codable, Sendable, Hashable {
    /// The package ecosystem, such as `go` or `npm`.
    public var ecosystem: String
    public var name: String
    public var current: String
    public var latest: String

    public init(ecosystem: String, name: String, current: String, latest: String) {
        self.ecosystem = ecosystem
        self.name = name
        self.current = current
        self.latest = latest
    }

    private enum CodingKeys: String, CodingKey {
        case ecosystem
        case name
        case current
        case latest
    }
}
