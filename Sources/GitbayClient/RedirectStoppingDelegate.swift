import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session delegate of ``URLSessionTransport``: it lets no redirect happen inside URLSession.
///
/// It must be the session's delegate: on Linux a per-task delegate is ignored for redirect
/// decisions, and URLSession would follow a cross-host redirect carrying `Authorization`.
/// Answering nil hands the 3xx response back to the transport, where ``RedirectPolicy`` decides.
final class RedirectStoppingDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
