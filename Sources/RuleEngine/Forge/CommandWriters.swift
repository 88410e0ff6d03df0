/// Who may write to a repository, as far as the bot can tell, for `allowed: [writers]`.
///
/// gitbay tells another account's role only to a token that administers the repository
/// (`repo access list`); without that, the configuration's `writers:` list decides, and an empty
/// one lets nobody through: a command nobody can be shown to be allowed is refused, not run.
public struct CommandWriters: Sendable, Hashable {
    /// Where the list came from.
    public enum Source: Sendable, Hashable {
        /// gitbay's own roles (`repo access list`).
        case gitbay
        /// The configuration's `writers:`, because gitbay would not tell (the reason).
        case configured(String)
    }

    public var accounts: Set<String>
    public var source: Source

    public init(accounts: Set<String>, source: Source) {
        self.accounts = accounts
        self.source = source
    }
}
