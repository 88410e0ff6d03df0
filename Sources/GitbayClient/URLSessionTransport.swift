import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ``HTTPTransport`` over `URLSession`, the default on macOS and a fallback on Linux.
///
/// It works around what FoundationNetworking does differently on Linux (see swift-notes §2):
/// - one session for the transport's whole life, never invalidated per request, because
///   per-request sessions trigger the corelibs multi-handle teardown races;
/// - a session-level delegate that stops every redirect (a per-task delegate is ignored for
///   redirects on Linux), so ``RedirectPolicy`` decides and the token never reaches another host;
/// - the whole-request deadline enforced by racing the exchange against `Task.sleep`, because
///   `timeoutIntervalForResource` is ignored on Linux and the request timeout is only an idle one.
///
/// Cancelling the calling task cancels the data task, which ends as ``TransportError/cancelled``.
/// On Linux, FoundationNetworking keeps a CPU busy while a request waits, which is why
/// ``PlatformTransport`` prefers ``CurlTransport`` there.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// Creates a transport with its own long-lived session (no cookies, no cache).
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: RedirectStoppingDelegate(), delegateQueue: nil)
    }

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        try await RedirectPolicy.send(request.addingDefaultUserAgent()) { (hop) throws(TransportError) in
            try await sendOnce(hop)
        }
    }

    /// One exchange, redirects not followed, raced against the request's deadline.
    private func sendOnce(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let urlRequest = Self.urlRequest(for: request)
        let session = session
        let result = await withTaskGroup(of: Result<HTTPResponse, TransportError>.self) { group in
            group.addTask { await Self.exchange(urlRequest, on: session) }
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

    private static func urlRequest(for request: HTTPRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        if request.method == .post {
            urlRequest.httpBody = request.body ?? Data()
        }
        // An idle timeout as long as the deadline: the race in `sendOnce` is what enforces it.
        let (seconds, attoseconds) = request.timeout.components
        urlRequest.timeoutInterval = Double(seconds) + Double(attoseconds) / 1e18
        for header in request.headers {
            urlRequest.addValue(header.value, forHTTPHeaderField: header.name)
        }
        return urlRequest
    }

    private static func exchange(
        _ urlRequest: URLRequest, on session: URLSession
    ) async -> Result<
        HTTPResponse, TransportError
    > {
        do {
            let (data, response) = try await session.data(for: urlRequest)
            guard let http = response as? HTTPURLResponse else {
                return .failure(.other("not an HTTP response"))
            }
            // allHeaderFields re-cases names on Linux; HTTPResponse.header(_:) matches case-insensitively.
            let headers = http.allHeaderFields.compactMap { name, value -> HTTPHeader? in
                guard let name = name as? String, let value = value as? String else { return nil }
                return HTTPHeader(name, value)
            }
            return .success(HTTPResponse(status: http.statusCode, headers: headers, body: data))
        } catch let error as URLError {
            return .failure(TransportError(urlError: error))
        } catch is CancellationError {
            return .failure(.cancelled)
        } catch {
            return .failure(.other(String(describing: error)))
        }
    }
}
