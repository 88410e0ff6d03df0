import HTTPServer
import Synchronization

/// The requests a test's handler saw, read by the test.
final class Recorder: Sendable {
    private let requests = Mutex<[HTTPServer.Request]>([])

    var seen: [HTTPServer.Request] { requests.withLock { $0 } }

    func record(_ request: HTTPServer.Request) {
        requests.withLock { $0.append(request) }
    }
}

/// A server on a free loopback port, taking bodies on `bodyRoutes`, whose handler records each
/// request and answers `response`.
func startedServer(
    on address: String = "127.0.0.1:0", limits: HTTPServer.Limits = HTTPServer.Limits(),
    bodyRoutes: [HTTPServer.BodyRoute] = [], recorder: Recorder = Recorder(),
    response: HTTPServer.Response = .text("metric 1\n")
) throws -> HTTPServer {
    try HTTPServer.start(on: ListenAddress.parse(address), limits: limits, bodyRoutes: bodyRoutes) { request in
        recorder.record(request)
        return response
    }
}
