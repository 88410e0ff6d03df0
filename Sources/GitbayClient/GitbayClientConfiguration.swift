import Foundation

/// Everything a ``GitbayClient`` needs to know: where, who, how fast and how careful.
public struct GitbayClientConfiguration: Sendable {
    /// Whether the client may send writes.
    public enum Access: Sendable, Hashable {
        /// Reads and writes.
        case readWrite
        /// Reads only: every write is refused before any I/O. This is what makes a dry run safe.
        case readOnly
    }

    /// The server, such as `https://gitbay.org`; the API lives under `/api/v1/`.
    public var baseURL: URL
    public var token: BearerToken
    public var access: Access
    /// Allows plain `http://` to a host that is not loopback (the token would cross the network in clear).
    public var allowInsecureHTTP: Bool
    public var userAgent: String
    /// Rows per page when listing, 1 to 200; fewer pages means fewer requests.
    public var pageLimit: Int
    /// The deadline of one HTTP exchange.
    public var requestTimeout: Duration
    public var rateLimits: RateLimits
    public var retry: RetryPolicy
    /// The largest answer the client reads; a longer one is a malformed response (see ``defaultMaxResponseSize``).
    public var maxResponseSize: ByteCount

    /// The default cap on one answer's body: 32 MiB.
    ///
    /// gitbay's answers are small (a page of 200 rows is well under a megabyte, and the bot never
    /// asks for diffs or archives), so the cap only ever stops a broken server or proxy that
    /// streams without end, before it takes the machine's memory.
    public static let defaultMaxResponseSize = ByteCount.mebibytes(32)

    public init(
        baseURL: URL, token: BearerToken, access: Access = .readWrite, allowInsecureHTTP: Bool = false,
        userAgent: String = "gitbay-bot/\(BotVersion.current)", pageLimit: Int = 200,
        requestTimeout: Duration = .seconds(30), rateLimits: RateLimits = .gitbayDefault,
        retry: RetryPolicy = RetryPolicy(), maxResponseSize: ByteCount = defaultMaxResponseSize
    ) {
        self.baseURL = baseURL
        self.token = token
        self.access = access
        self.allowInsecureHTTP = allowInsecureHTTP
        self.userAgent = userAgent
        self.pageLimit = min(max(pageLimit, 1), 200)
        self.requestTimeout = requestTimeout
        self.rateLimits = rateLimits
        self.retry = retry
        self.maxResponseSize = maxResponseSize
    }

    /// Checks what can be checked before any request: a usable URL, TLS unless loopback or opted
    /// out (``ServerURLRefusal``).
    func validate() throws(GitbayError) {
        guard let refusal = ServerURLRefusal(baseURL, allowInsecureHTTP: allowInsecureHTTP) else { return }
        var message = refusal.description
        if case .plainHTTP = refusal { message += "; use https:// or opt in to insecure HTTP" }
        throw GitbayError(kind: .insecureURL, message: message)
    }
}
