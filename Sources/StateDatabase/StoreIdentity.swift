import Foundation

/// The server and account a state database belongs to.
///
/// A journal only means something against the forge it was written for: a database copied to
/// another server's path would have the next run finish "unfinished" actions on the wrong items.
public struct StoreIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The server's URL as configured, in the form ``canonical(server:)`` gives it.
    public var server: String
    /// The account the token belongs to.
    public var account: String

    public init(server: String, account: String) {
        self.server = Self.canonical(server: server)
        self.account = account
    }

    /// `server` with its scheme and host in lower case and no trailing slash, so that the ways of
    /// writing one server's URL (`--url https://gitbay.example/`) all own the same database.
    public static func canonical(server: String) -> String {
        guard var components = URLComponents(string: server) else { return server }
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        while components.path.hasSuffix("/") { components.path.removeLast() }
        return components.string ?? server
    }

    /// `alice on https://gitbay.example`.
    public var description: String {
        "\(account) on \(server)"
    }
}
