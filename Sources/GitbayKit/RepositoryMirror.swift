/// One mirror in `repo show` (admins only): `{"direction","url","pending","last_sync"?,"last_error"?}`.
///
/// Kept so a `repo show` reply round-trips; `last_sync` stays a string because its format is not
/// documented and a mirror detail must never fail the whole reply.
public struct RepositoryMirror: Codable, Sendable, Hashable {
    /// `push` or `pull`.
    public var direction: String
    public var url: String
    /// Whether a sync is due.
    public var pending: Bool
    public var lastSync: String?
    public var lastError: String?

    public init(
        direction: String, url: String, pending: Bool = false, lastSync: String? = nil, lastError: String? = nil
    ) {
        self.direction = direction
        self.url = url
        self.pending = pending
        self.lastSync = lastSync
        self.lastError = lastError
    }

    private enum CodingKeys: String, CodingKey {
        case direction
        case url
        case pending
        case lastSync = "last_sync"
        case lastError = "last_error"
    }
}
