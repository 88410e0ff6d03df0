import Foundation

/// One HTTP header, kept as sent: order and repetition matter for some servers.
public struct HTTPHeader: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// An HTTP request as the gitbay client builds it, independent of the transport that sends it.
public struct HTTPRequest: Sendable {
    public enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
    }

    public var method: Method
    public var url: URL
    public var headers: [HTTPHeader]
    public var body: Data?
    /// The whole-request deadline: connecting, sending and receiving must finish within it.
    public var timeout: Duration
    /// The largest body the transport accepts; it stops receiving a longer one and fails with
    /// ``TransportError/responseTooLarge(_:)``, so an endless answer cannot take all memory.
    public var maxResponseSize: ByteCount

    public init(
        method: Method, url: URL, headers: [HTTPHeader] = [], body: Data? = nil, timeout: Duration,
        maxResponseSize: ByteCount = GitbayClientConfiguration.defaultMaxResponseSize
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maxResponseSize = maxResponseSize
    }
}

/// An HTTP response: status, headers and the whole body.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [HTTPHeader]
    public var body: Data

    public init(status: Int, headers: [HTTPHeader] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header, matched case-insensitively as HTTP requires.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// Why a request got no HTTP response at all.
public enum TransportError: Error, Sendable, Hashable {
    /// The deadline passed before the response was complete.
    case timedOut
    /// No connection could be made (refused, DNS failure, unreachable).
    case cannotConnect(String)
    /// The connection broke mid-exchange (reset, closed early, truncated).
    case connectionLost(String)
    /// TLS failed: certificate or handshake.
    case tls(String)
    /// The server redirected to another host, which the bot never follows with its token.
    case redirectRefused(String)
    /// The body passed the request's ``HTTPRequest/maxResponseSize``, the cap given here; the
    /// transport stopped receiving it.
    case responseTooLarge(ByteCount)
    /// The task was cancelled.
    case cancelled
    /// Anything else the transport reported.
    case other(String)
}

/// The seam between the gitbay client and the network.
///
/// The client above it owns paging, pacing, retries and error mapping; an adapter only moves one
/// request and its response, honouring the request's deadline. Tests use an in-memory version.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse
}
