/// The caller's identity, as `whoami` returns it: `{"username","admin","key_scope"}`.
///
/// The bot filters its own writes out of feeds by this username. Over HTTP `key_scope` is always
/// `full`; the token's own scope is enforced separately.
public struct Identity: Codable, Sendable, Hashable {
    public var username: String
    /// Whether the account is a site admin.
    public var admin: Bool
    /// `full` or `read`.
    public var keyScope: String

    public init(username: String, admin: Bool = false, keyScope: String) {
        self.username = username
        self.admin = admin
        self.keyScope = keyScope
    }

    private enum CodingKeys: String, CodingKey {
        case username
        case admin
        case keyScope = "key_scope"
    }
}
