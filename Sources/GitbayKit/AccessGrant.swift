/// One account's role on a repository, as `repo access list` gives it: `{"user", "role", "source"?}`
/// (`internal/control/repo.go`, `runAccessList`).
public struct AccessGrant: Codable, Sendable, Hashable {
    public var user: String
    /// gitbay's role name (`read`, `write`, `admin`, ...).
    public var role: String
    /// Where the role comes from (`direct`, `team <t>`, `org admin`, ...), from newer servers.
    public var source: String?

    public init(user: String, role: String, source: String? = nil) {
        self.user = user
        self.role = role
        self.source = source
    }

    /// The roles that may write to the repository: those `policy.CanWrite` lets through.
    public static let writingRoles: Set<String> = ["write", "maintain", "admin", "owner"]

    /// Whether this grant lets its account write.
    public var canWrite: Bool { Self.writingRoles.contains(role) }
}
