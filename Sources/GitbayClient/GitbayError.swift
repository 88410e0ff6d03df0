/// Why a gitbay request failed, with the server's own message and never the token.
///
/// Callers branch on ``kind`` (built from the HTTP status and the envelope's `exit_code`, never
/// from message text), show ``description`` to people, and, for a write, read
/// ``mayHaveApplied`` to decide whether the item must be re-read before anything is retried.
public struct GitbayError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The classes of failure a caller treats differently.
    public enum Kind: Sendable, Hashable {
        /// 401: the token is missing, unknown, expired or revoked.
        case unauthorized
        /// Exit 4: permissions, a read-only token, an archived repository, a disabled account.
        case denied
        /// Exit 3: the item does not exist, or the account may not know it does.
        case notFound
        /// Exit 2, or a pre-dispatch 400/404: the command or a value is wrong.
        case usage
        /// Exit 1: a refusal due to state, such as "already closed".
        case failure
        /// Exit 5, or a 5xx that is not a refusal: the server broke.
        case serverError
        /// 429, or "too many writes", for longer than the client will wait.
        case rateLimited
        /// 503: the server was busy for longer than the client will wait.
        case busy
        /// The client is read-only (a dry run) and the command writes; nothing was sent.
        case readOnlyClient
        /// Plain `http://` to a host that is not loopback, without the opt-in.
        case insecureURL
        /// No HTTP answer: connection, deadline, TLS or redirect trouble.
        case transport(TransportError)
        /// The answer was not a gitbay envelope, or its payload did not decode.
        case malformedResponse
        /// The envelope's `protocol_version` is a major version this client does not speak.
        case unsupportedProtocol(Int)
        /// The task was cancelled.
        case cancelled
    }

    public var kind: Kind
    /// The server's message, or ours when the server gave none.
    public var message: String
    /// The argv of the command that failed (never its stdin).
    public var argv: [String]
    public var httpStatus: Int?
    public var exitCode: Int?
    /// How long the server asked to wait, when it said.
    public var retryAfter: Duration?
    /// For a write: whether the server may have applied it although no success came back.
    public var mayHaveApplied: Bool

    public init(
        kind: Kind, message: String, argv: [String] = [], httpStatus: Int? = nil, exitCode: Int? = nil,
        retryAfter: Duration? = nil, mayHaveApplied: Bool = false
    ) {
        self.kind = kind
        self.message = message
        self.argv = argv
        self.httpStatus = httpStatus
        self.exitCode = exitCode
        self.retryAfter = retryAfter
        self.mayHaveApplied = mayHaveApplied
    }

    public var description: String {
        var text = argv.isEmpty ? message : "\(argv.joined(separator: " ")): \(message)"
        var facts: [String] = []
        if let exitCode { facts.append("exit \(exitCode)") }
        if let httpStatus { facts.append("HTTP \(httpStatus)") }
        if !facts.isEmpty { text += " (\(facts.joined(separator: ", ")))" }
        if mayHaveApplied { text += "; the server may have applied it" }
        return text
    }

    /// Whether the server could not be reached at all: no connection (refused, a name that does
    /// not resolve, no route), TLS refused, or a redirect to another host.
    ///
    /// Each means the URL is wrong or the server is down, not that one exchange broke on the way,
    /// so the bot reports it apart ("cannot reach the gitbay server at ..."), with an exit code a
    /// service manager treats as a failure, and sends nothing more in that run.
    public var isUnreachable: Bool {
        guard case .transport(let failure) = kind else { return false }
        switch failure {
        case .cannotConnect, .tls, .redirectRefused: return true
        case .timedOut, .connectionLost, .responseTooLarge, .cancelled, .other: return false
        }
    }

    /// Whether waiting and running the bot again may succeed (rate limits, a busy or broken server,
    /// the network), as opposed to a refusal that will recur.
    public var isTemporary: Bool {
        switch kind {
        case .rateLimited, .busy, .serverError, .transport:
            return true
        default:
            return false
        }
    }
}
