import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session delegate of ``URLSessionTransport``: it gathers each answer within its size cap
/// and lets no redirect happen inside URLSession.
///
/// It must be the session's delegate: on Linux a per-task delegate is ignored for redirect
/// decisions, and URLSession would follow a cross-host redirect carrying `Authorization`.
/// Answering nil hands the 3xx response back to the transport, where ``RedirectPolicy`` decides.
///
/// Bodies arrive here piece by piece, unlike `data(for:)`, which holds the whole body before it
/// returns: a piece that would take a body past its request's cap cancels the task at once.
final class URLSessionExchangeDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// A task's place in the table: waited for, or cancelled before it could start.
    private enum Slot {
        case waiting(Exchange)
        case cancelledBeforeStart
    }

    /// A task in flight: who waits for it, its cap, and the body so far.
    private struct Exchange {
        var continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>
        var maxResponseSize: ByteCount
        var body = Data()
    }

    private let slots = Mutex<[Int: Slot]>([:])

    /// Starts `task`; its outcome resumes `continuation` exactly once.
    func start(
        _ task: URLSessionDataTask, maxResponseSize: ByteCount,
        continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>
    ) {
        let cancelled = slots.withLock { slots in
            if case .cancelledBeforeStart = slots.removeValue(forKey: task.taskIdentifier) { return true }
            slots[task.taskIdentifier] = .waiting(
                Exchange(continuation: continuation, maxResponseSize: maxResponseSize))
            return false
        }
        if cancelled {
            continuation.resume(returning: .failure(.cancelled))
        } else {
            task.resume()
        }
    }

    /// Ends `task` as cancelled, whether or not it has started.
    func cancel(_ task: URLSessionDataTask) {
        let waiting = slots.withLock { slots in
            guard case .waiting(let exchange) = slots.removeValue(forKey: task.taskIdentifier) else {
                slots[task.taskIdentifier] = .cancelledBeforeStart
                return nil as Exchange?
            }
            return exchange
        }
        task.cancel()
        waiting?.continuation.resume(returning: .failure(.cancelled))
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let passed = slots.withLock { slots -> Exchange? in
            guard case .waiting(var exchange) = slots[dataTask.taskIdentifier] else { return nil }
            guard data.count <= exchange.maxResponseSize.bytes - exchange.body.count else {
                slots[dataTask.taskIdentifier] = nil
                return exchange
            }
            // Out of the table while appending, so the body is not copied.
            slots[dataTask.taskIdentifier] = nil
            exchange.body.append(data)
            slots[dataTask.taskIdentifier] = .waiting(exchange)
            return nil
        }
        guard let passed else { return }
        dataTask.cancel()
        passed.continuation.resume(returning: .failure(.responseTooLarge(passed.maxResponseSize)))
    }

    /// Resumes the exchange waiting for `task`, if one is.
    ///
    /// Only a waiting exchange leaves the table here. A task cancelled before it started is
    /// reported complete by URLSession too; taking its `cancelledBeforeStart` mark away then made
    /// ``start(_:maxResponseSize:continuation:)`` resume a task that would never answer, and the
    /// request waited forever (found by `TransportTests`' cancel stress, now a test).
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = slots.withLock { slots -> Exchange? in
            guard case .waiting(let exchange) = slots[task.taskIdentifier] else { return nil }
            slots[task.taskIdentifier] = nil
            return exchange
        }
        exchange?.continuation.resume(returning: Self.result(of: task, body: exchange?.body ?? Data(), error: error))
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    private static func result(
        of task: URLSessionTask, body: Data, error: (any Error)?
    ) -> Result<HTTPResponse, TransportError> {
        if let error {
            return .failure((error as? URLError).map(TransportError.init(urlError:)) ?? .other("\(error)"))
        }
        guard let http = task.response as? HTTPURLResponse else {
            return .failure(.other("not an HTTP response"))
        }
        // allHeaderFields re-cases names on Linux; HTTPResponse.header(_:) matches case-insensitively.
        let headers = http.allHeaderFields.compactMap { name, value -> HTTPHeader? in
            guard let name = name as? String, let value = value as? String else { return nil }
            return HTTPHeader(name, value)
        }
        return .success(HTTPResponse(status: http.statusCode, headers: headers, body: body))
    }
}
