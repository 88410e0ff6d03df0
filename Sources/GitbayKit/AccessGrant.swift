/// One account's role on a repository, as `repo access list` gives it: `{"user", "role", "source"?}`
/// (`internal/control/repo.go`, `runAccessList`).
public struct AccessGrant: Codable, Sendable, Hashable {
    public var user: String
    /// gitbay's role name: `read`, `write` or `admin` (`store/repos.go`, `EffectiveAccess`).
    public var role: String
    /// Where the role comes from (`direct`, `team <t>`, `org admin`, ...), from newer servers.
    public var source: String?

    public init(user: String, role: String, source: String? = nil) {
        self.user = user
        self.role = role
        self.source = source
    }

    /// The roles `policy.CanWrite` lets write to the repository.
    ///
    /// gitbay has no others: an owner's grant reads `admin`, with `source` saying `owner`.
    public static let writingRoles: Set<String> = ["write", "admin"]

    /// Whether this grant lets its account write.
    public var canWrite: Bool { Self.writingRoles.contains(role) }
}
