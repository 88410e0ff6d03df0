/// The server and account a state database belongs to.
///
/// A journal only means something against the forge it was written for: a database copied to
/// another server's path would have the next run finish "unfinished" actions on the wrong items.
public struct StoreIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The server's URL as configured.
    public var server: String
    /// The account the token belongs to.
    public var account: String

    public init(server: String, account: String) {
        self.server = server
        self.account = account
    }

    /// `alice on https://gitbay.example`.
    public var description: String {
        "\(account) on \(server)"
    }
}
