import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ``HTTPTransport`` over `URLSession`, the default on macOS and a fallback on Linux.
///
/// It works around what FoundationNetworking does differently on Linux:
/// - one session for the transport's whole life, never invalidated per request, because
///   per-request sessions trigger the corelibs multi-handle teardown races;
/// - a session-level delegate that stops every redirect (a per-task delegate is ignored for
///   redirects on Linux), so ``RedirectPolicy`` decides and the token never reaches another host;
/// - the whole-request deadline enforced by racing the exchange against `Task.sleep`, because
///   `timeoutIntervalForResource` is ignored on Linux and the request timeout is only an idle one.
/// - bodies gathered piece by piece by that delegate, which cancels a task whose body would pass
///   the request's `maxResponseSize`, where `data(for:)` would hold an endless body in memory.
///
/// Cancelling the calling task cancels the data task, which ends as ``TransportError/cancelled``.
/// On Linux, FoundationNetworking keeps a CPU busy while a request waits, which is why
/// ``PlatformTransport`` prefers ``CurlTransport`` there.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let delegate = URLSessionExchangeDelegate()

    /// Creates a transport with its own long-lived session (no cookies, no cache).
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        try await RedirectPolicy.send(request.addingDefaultUserAgent()) { (hop) throws(TransportError) in
            try await sendOnce(hop)
        }
    }

    /// One exchange, redirects not followed, raced against the request's deadline.
    private func sendOnce(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let urlRequest = Self.urlRequest(for: request)
        let (session, delegate) = (session, delegate)
        let result = await withTaskGroup(of: Result<HTTPResponse, TransportError>.self) { group in
            group.addTask {
                await Self.exchange(
                    urlRequest, maxResponseSize: request.maxResponseSize, on: session, delegate: delegate)
            }
            group.addTask {
                do {
                    try await Task.sleep(for: request.timeout)
                    return .failure(.timedOut)
                } catch {
                    return .failure(.cancelled)
                }
            }
            let first = await group.next() ?? .failure(.cancelled)
            group.cancelAll()
            return first
        }
        return try result.get()
    }

    /// The request as URLSession takes it, with an idle timeout of whole seconds never shorter
    /// than the request's deadline.
    static func urlRequest(for request: HTTPRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        if request.method == .post {
            urlRequest.httpBody = request.body ?? Data()
        }
        // An idle timeout no shorter than the deadline: the race in `sendOnce` is what enforces it.
        // FoundationNetworking truncates it to whole seconds (0.9 s would time out at once), so
        // it is rounded up.
        let (seconds, attoseconds) = request.timeout.components
        urlRequest.timeoutInterval = max(1, Double(seconds) + (attoseconds > 0 ? 1 : 0))
        for header in request.headers {
            urlRequest.addValue(header.value, forHTTPHeaderField: header.name)
        }
        return urlRequest
    }

    /// One exchange whose body the session delegate gathers within the request's cap.
    private static func exchange(
        _ urlRequest: URLRequest, maxResponseSize: ByteCount, on session: URLSession,
        delegate: URLSessionExchangeDelegate
    ) async -> Result<HTTPResponse, TransportError> {
        let task = session.dataTask(with: urlRequest)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                delegate.start(task, maxResponseSize: maxResponseSize, continuation: continuation)
            }
        } onCancel: {
            delegate.cancel(task)
        }
    }
}
