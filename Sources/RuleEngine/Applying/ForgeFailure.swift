/// What a read or write came to when the forge did not do it, in the engine's own terms.
///
/// The applier decides from it alone whether to stop (the token turned away), to try again later
/// (a limit, a busy server) or to re-read the item (a write that may have taken effect), so the
/// engine never needs to know which client or transport carried the command.
public struct ForgeFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the applier does differently about a failure.
    public enum Kind: Sendable, Hashable {
        /// The server turned the token away: nothing later can succeed.
        case tokenRejected
        /// The forge cannot be reached at all (no connection, no such host, TLS refused): nothing
        /// later can succeed either, and the write was not sent.
        case unreachable
        /// A rate limit: the same write may succeed after waiting.
        case rateLimited
        /// The server was busy: the same write may succeed after waiting.
        case busy
        /// The run was stopped before the write was sent (while it waited for the write budget,
        /// a `Retry-After` or a backoff): it was not applied, and nothing more is sent.
        case stopped
        /// The token may not do this here (gitbay's exit 4): a read only an admin may make, say.
        case denied
        /// gitbay ran the command and said no: the item's state (exit 1, such as a merge gate), a
        /// value (exit 2) or an item it cannot find (exit 3). The same write gets the same answer.
        case refused
        /// Anything else: a broken server or network, an answer that is no gitbay envelope.
        case other
    }

    public var kind: Kind
    /// The failure in a few words, for the outcome of an action that was found done anyway.
    public var message: String
    /// The whole failure (the command, the server's answer), for the journal and the report.
    public var description: String
    /// Whether the forge may have applied the write although no success came back.
    public var mayHaveApplied: Bool

    public init(kind: Kind, message: String, description: String? = nil, mayHaveApplied: Bool = false) {
        self.kind = kind
        self.message = message
        self.description = description ?? message
        self.mayHaveApplied = mayHaveApplied
    }

    /// Whether waiting and running again may succeed.
    public var retryLater: Bool { kind == .rateLimited || kind == .busy }

    /// Whether gitbay itself answered no (``Kind/refused``, ``Kind/denied``): a command in a
    /// comment is then answered with the reason, where a broken network or server leaves it for
    /// the next run.
    public var isRefusal: Bool { kind == .refused || kind == .denied }
}

/// An error of a forge client that the engine can read as a ``ForgeFailure``.
///
/// Reads throw the client's own errors, so that the command line keeps their exit codes; the
/// applier asks this of a failed re-read to tell a token turned away from anything else.
public protocol ForgeFailureConvertible: Error {
    var forgeFailure: ForgeFailure { get }
}

extension ForgeFailure: ForgeFailureConvertible {
    public var forgeFailure: ForgeFailure { self }
}
