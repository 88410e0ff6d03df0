import Foundation
import GitbayClient
import Synchronization

/// An ``HTTPTransport`` that answers from a closure and records every request it was given.
///
/// Tests drive the client's paging, pacing and error mapping through it without a socket.
public final class InMemoryTransport: HTTPTransport {
    public typealias Handler = @Sendable (HTTPRequest) throws(TransportError) -> HTTPResponse

    private let handler: Handler
    private let recorded = Mutex<[HTTPRequest]>([])

    public init(handler: @escaping Handler) {
        self.handler = handler
    }

    /// Every request sent so far, in order.
    public var requests: [HTTPRequest] {
        recorded.withLock { $0 }
    }

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        recorded.withLock { $0.append(request) }
        return try handler(request)
    }
}
