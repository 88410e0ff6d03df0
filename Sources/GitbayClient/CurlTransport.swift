#if canImport(CCurl)
import CCurl
import Foundation

/// An ``HTTPTransport`` that drives libcurl directly, the default on Linux.
///
/// FoundationNetworking's URLSession is itself libcurl underneath, but on Linux it ignores the
/// whole-request deadline, forwards `Authorization` across hosts on redirects and spins a CPU
/// while it waits. This transport keeps libcurl and drops the rest: every transfer runs on one
/// dedicated thread through a curl multi handle (see ``CurlMultiLoop``), so blocking I/O never
/// touches the Swift cooperative pool, any number of concurrent requests share that one thread,
/// and connections to the forge are kept alive and reused from the multi handle's cache.
///
/// `request.timeout` becomes `CURLOPT_TIMEOUT_MS`, a true deadline for the whole exchange
/// (connect, send, wait, receive), shared across any redirects followed. Cancelling the calling
/// task aborts the transfer at once with ``TransportError/cancelled``. Proxies come from the
/// `http_proxy`/`https_proxy`/`no_proxy` environment variables, which libcurl reads by itself.
public final class CurlTransport: HTTPTransport {
    private let loop: CurlMultiLoop

    /// Creates a transport with its own transfer thread and connection cache.
    ///
    /// - Parameter connectTimeout: the most time a connection attempt may take, capped by each
    ///   request's own deadline; it fails fast on an unreachable host instead of eating the
    ///   whole deadline.
    public init(connectTimeout: Duration = .seconds(10)) {
        loop = CurlMultiLoop(connectTimeout: connectTimeout)
    }

    deinit {
        loop.stop()
    }

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        try await RedirectPolicy.send(request.addingDefaultUserAgent()) { (hop) throws(TransportError) in
            try await loop.perform(hop)
        }
    }
}
#endif
