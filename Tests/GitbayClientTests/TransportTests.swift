import Foundation
import GitbayTestSupport
import Synchronization
import Testing

@testable import GitbayClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The behaviour both real transports must share, checked against a local Python server.
@Suite(.testHTTPServer) struct TransportTests {
    /// What the server's `/echo` endpoint saw.
    struct Echo: Decodable {
        var method: String
        var path: String
        var headers: [String: String]
        var body: String
        var clientPort: Int

        enum CodingKeys: String, CodingKey {
            case method, path, headers, body
            case clientPort = "client_port"
        }
    }

    /// One request the server logged.
    struct LogEntry: Decodable {
        var host: String
        var path: String
        var authorization: String?
    }

    /// The deadline of a request whose test is not about deadlines: long enough that a machine
    /// whose two cooperative threads are busy for many seconds with other suites' CPU-bound work
    /// (resuming between redirect hops needs one) never turns a right answer into `.timedOut`.
    static let patience = Duration.seconds(60)

    static func get(_ url: URL, headers: [HTTPHeader] = [], timeout: Duration = patience) -> HTTPRequest {
        HTTPRequest(method: .get, url: url, headers: headers, timeout: timeout)
    }

    static func echo(_ response: HTTPResponse) throws -> Echo {
        try JSONDecoder().decode(Echo.self, from: response.body)
    }

    static func log(of server: TransportTestServer, using transport: any HTTPTransport) async throws -> [LogEntry] {
        let response = try await transport.send(get(server.url("/log")))
        return try JSONDecoder().decode([LogEntry].self, from: response.body)
    }

    /// Sends `request` and returns the transport error it failed with, or nil if it succeeded.
    static func failure(of request: HTTPRequest, using transport: any HTTPTransport) async -> TransportError? {
        do {
            _ = try await transport.send(request)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: TransportKind.allCases)
    func getRoundTripSendsHeadersAndDefaultUserAgent(kind: TransportKind) async throws {
        do {
            let server = try TestHTTPServer.shared()
            let request = Self.get(
                server.url("/echo?q=1"),
                headers: [HTTPHeader("X-Test", "abc"), HTTPHeader("Authorization", "Bearer t")])
            let response = try await kind.make().send(request)
            let echo = try Self.echo(response)
            #expect(response.status == 200)
            #expect(echo.method == "GET")
            #expect(echo.path == "/echo?q=1")
            #expect(echo.headers["x-test"] == "abc")
            #expect(echo.headers["authorization"] == "Bearer t")
            #expect(echo.headers["user-agent"] == HTTPRequest.defaultUserAgent)
            #expect(HTTPRequest.defaultUserAgent == "gitbay-bot/\(BotVersion.current)")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func postRoundTripSendsBodyAndKeepsGivenUserAgent(kind: TransportKind) async throws {
        do {
            let server = try TestHTTPServer.shared()
            let body = Data(#"{"argv":["issue","list"],"stdin":"é"}"#.utf8)
            let request = HTTPRequest(
                method: .post, url: server.url("/echo?status=201"),
                headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("user-agent", "custom/1")],
                body: body, timeout: Self.patience)
            let response = try await kind.make().send(request)
            let echo = try Self.echo(response)
            #expect(response.status == 201)
            #expect(echo.method == "POST")
            #expect(Data(echo.body.utf8) == body)
            #expect(echo.headers["content-type"] == "application/json")
            #expect(echo.headers["user-agent"] == "custom/1")
            #expect(response.header("content-type") == "application/json")
        }
    }

    @Test(arguments: TransportKind.allCases, [404, 500])
    func errorStatusesAreResponsesNotErrors(kind: TransportKind, status: Int) async throws {
        do {
            let server = try TestHTTPServer.shared()
            let response = try await kind.make().send(Self.get(server.url("/status/\(status)")))
            #expect(response.status == status)
            #expect(String(decoding: response.body, as: UTF8.self) == "status \(status)")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func responseHeadersMatchCaseInsensitively(kind: TransportKind) async throws {
        do {
            let server = try TestHTTPServer.shared()
            let response = try await kind.make().send(Self.get(server.url("/headers")))
            #expect(response.header("x-custom-header") == "Mixed")
            #expect(response.header("X-CUSTOM-HEADER") == "Mixed")
            #expect(response.header("etag") == "\"abc\"")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func gzipBodyArrivesDecoded(kind: TransportKind) async throws {
        do {
            let server = try TestHTTPServer.shared()
            let response = try await kind.make().send(Self.get(server.url("/gzip")))
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == String(repeating: "hello gzip ", count: 200))
        }
    }

    /// A dripping reply (ten bytes every 0.3 s for 6 s) fails a 1 s deadline too, so
    /// the deadline is the whole request's, not an idle timeout; `gitbay-bench transport` measures
    /// how closely each transport keeps it.
    @Test(arguments: TransportKind.allCases, ["/stall", "/drip"])
    func deadlineCoversTheWholeRequest(kind: TransportKind, path: String) async throws {
        do {
            let server = try TestHTTPServer.shared()
            let error = await Self.failure(of: Self.get(server.url(path), timeout: .seconds(1)), using: kind.make())
            #expect(error == .timedOut)
        }
    }

    /// FoundationNetworking truncates a request's idle timeout to whole seconds, so a deadline
    /// under one second (as a redirect's last hop may have) must not become an instant timeout:
    /// the idle timeout is rounded up, never under a second, and the race against the deadline
    /// (`deadlineCoversTheWholeRequest`) is what ends the request.
    ///
    /// Checked on the request URLSession is given rather than by timing a reply, which a loaded
    /// machine can make late whatever the timeout.
    @Test(arguments: [(0.01, 1.0), (0.9, 1.0), (1.0, 1.0), (1.5, 2.0), (30.0, 30.0)] as [(Double, Double)])
    func aDeadlineUnderASecondStillWaitsForTheReply(deadline: Double, idle: Double) throws {
        let request = Self.get(URL(string: "http://127.0.0.1:9/")!, timeout: .milliseconds(Int(deadline * 1000)))
        #expect(URLSessionTransport.urlRequest(for: request).timeoutInterval == idle)
    }

    @Test(arguments: TransportKind.allCases)
    func refusedConnectionIsCannotConnect(kind: TransportKind) async throws {
        let error = await Self.failure(
            of: Self.get(URL(string: "http://127.0.0.1:1/")!, timeout: .seconds(5)), using: kind.make())
        guard case .cannotConnect = error else {
            Issue.record("expected cannotConnect, got \(String(describing: error))")
            return
        }
    }

    @Test(arguments: TransportKind.allCases)
    func resetConnectionIsConnectionLost(kind: TransportKind) async throws {
        do {
            let server = try TestHTTPServer.shared()
            let error = await Self.failure(of: Self.get(server.url("/reset")), using: kind.make())
            guard case .connectionLost = error else {
                Issue.record("expected connectionLost, got \(String(describing: error))")
                return
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func sameOriginRedirectIsFollowedWithToken(kind: TransportKind) async throws {
        do {
            let server = try TestHTTPServer.shared()
            let request = Self.get(
                server.url("/redirect?code=301&to=/echo%3Fhop%3D1"), headers: [HTTPHeader("Authorization", "Bearer t")])
            let response = try await kind.make().send(request)
            let echo = try Self.echo(response)
            #expect(response.status == 200)
            #expect(echo.path == "/echo?hop=1")
            #expect(echo.headers["authorization"] == "Bearer t")
        }
    }

    @Test(arguments: TransportKind.allCases, [(303, "GET", ""), (302, "GET", ""), (307, "POST", "payload")])
    func redirectRewritesMethodPerStatus(
        kind: TransportKind, expected: (code: Int, method: String, body: String)
    )
        async throws
    {
        let (code, method, body) = expected
        do {
            let server = try TestHTTPServer.shared()
            let request = HTTPRequest(
                method: .post, url: server.url("/redirect?code=\(code)&to=/echo"),
                headers: [HTTPHeader("Content-Type", "text/plain")], body: Data("payload".utf8), timeout: Self.patience)
            let echo = try Self.echo(try await kind.make().send(request))
            #expect(echo.method == method)
            #expect(echo.body == body)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func crossHostRedirectIsRefusedAndTokenNeverLeaves(kind: TransportKind) async throws {
        do {
            let server = try TestHTTPServer.shared()
            let transport = kind.make()
            let marker = "leak-\(UUID().uuidString)"
            let target = server.url("/\(marker)", host: "localhost").absoluteString
            let request = Self.get(
                server.url("/redirect?code=302&to=\(target)"), headers: [HTTPHeader("Authorization", "Bearer secret")])
            let error = await Self.failure(of: request, using: transport)
            #expect(error == .redirectRefused("localhost"))
            let log = try await Self.log(of: server, using: transport)
            #expect(log.contains { $0.path.hasPrefix("/redirect") && $0.path.contains(marker) })
            #expect(!log.contains { $0.path.hasPrefix("/\(marker)") || $0.host.hasPrefix("localhost") })
        }
    }

    @Test(arguments: TransportKind.allCases)
    func redirectLoopStopsAfterFiveHops(kind: TransportKind) async throws {
        do {
            let server = try TestHTTPServer.shared()
            let loop = "/loop?m=\(UUID().uuidString)"
            let transport = kind.make()
            let error = await Self.failure(of: Self.get(server.url(loop)), using: transport)
            #expect(error == .other("more than 5 redirects"))
            let log = try await Self.log(of: server, using: transport)
            #expect(log.filter { $0.path == loop }.count == 6)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func cancellingTheTaskCancelsTheTransfer(kind: TransportKind) async throws {
        do {
            let server = try TestHTTPServer.shared()
            let transport = kind.make()
            let stall = "/stall?m=\(UUID().uuidString)"
            let request = Self.get(server.url(stall), timeout: .seconds(30))
            let task = Task { await Self.failure(of: request, using: transport) }
            // Cancelled once the server has the request, so the transfer is in flight.
            let reader = kind.make()
            let arrived = try await eventually(within: 20) {
                try await Self.log(of: server, using: reader).contains { $0.path == stall }
            }
            try #require(arrived, "the stalled request never reached the server")
            task.cancel()
            // Were the transfer not cancelled, it would end at its deadline as `.timedOut`.
            #expect(await task.value == .cancelled)
        }
    }

    /// Cancels come at every moment of a request's start, many at once: each send still ends.
    ///
    /// URLSession reports a task cancelled before it was resumed as complete; the session's
    /// delegate once took that for the request's end and dropped the mark that the request was
    /// cancelled, so the request then waited forever (about one full suite in twenty hung on
    /// `cancellingTheTaskCancelsTheTransfer`; with the old delegate this failed 4 runs of 4).
    @Test(arguments: TransportKind.allCases)
    func cancelsRacingTheStartEndEverySend(kind: TransportKind) async throws {
        let server = try TestHTTPServer.shared()
        let stuck = try await withThrowingTaskGroup(of: [String].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var stuck: [String] = []
                    for round in 0..<60 {
                        let transport = kind.make()
                        let request = Self.get(server.url("/stall?race=\(worker)-\(round)"), timeout: .seconds(30))
                        let ended = EndFlag()
                        let task = Task {
                            _ = await Self.failure(of: request, using: transport)
                            ended.set()
                        }
                        // Not a wait: where in the request's start the cancel lands is what varies.
                        try await Task.sleep(for: .microseconds(Int.random(in: 0...3000)))
                        task.cancel()
                        // Bounded: a send that does not end within 10 s is reported, not waited for.
                        let endedInTime = try await eventually(within: 10, every: .milliseconds(10)) { ended.isSet }
                        if !endedInTime { stuck.append("\(worker)-\(round)") }
                    }
                    return stuck
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(stuck.isEmpty, "sends that never ended after a cancel: \(stuck)")
    }

    /// A chunked body without a length (that would go on for 8 MiB, so a transport missing the
    /// cap returns it rather than take the runner's memory), and a small gzip body that unpacks
    /// past the cap: the cap counts the body as decoded.
    @Test(arguments: TransportKind.allCases, [("/endless?stop_after=8388608", 262_144), ("/gzip", 1024)])
    func aBodyPastTheCapStopsTheTransfer(kind: TransportKind, answer: (path: String, cap: Int)) async throws {
        do {
            let server = try TestHTTPServer.shared()
            let cap = ByteCount(bytes: answer.cap)
            let request = HTTPRequest(
                method: .get, url: server.url(answer.path), timeout: Self.patience, maxResponseSize: cap)
            #expect(await Self.failure(of: request, using: kind.make()) == .responseTooLarge(cap))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aBodyOfTheCapArrivesAndOneByteMoreDoesNot(kind: TransportKind) async throws {
        do {
            let server = try TestHTTPServer.shared()
            let transport = kind.make()
            let cap = ByteCount(bytes: 1000)
            let fits = HTTPRequest(
                method: .get, url: server.url("/bytes?n=1000"), timeout: Self.patience, maxResponseSize: cap)
            #expect(try await transport.send(fits).body.count == 1000)
            var over = fits
            over.url = server.url("/bytes?n=1001")
            #expect(await Self.failure(of: over, using: transport) == .responseTooLarge(cap))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func twentyConcurrentRequestsAllSucceed(kind: TransportKind) async throws {
        do {
            let server = try TestHTTPServer.shared()
            let transport = kind.make()
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        let response = try await transport.send(Self.get(server.url("/echo?n=\(index)")))
                        return response.status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 20))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func sequentialRequestsReuseTheConnection(kind: TransportKind) async throws {
        do {
            let server = try TestHTTPServer.shared()
            let transport = kind.make()
            let first = try Self.echo(try await transport.send(Self.get(server.url("/echo"))))
            let second = try Self.echo(try await transport.send(Self.get(server.url("/echo"))))
            #expect(first.clientPort == second.clientPort)
        }
    }
}

/// Set once a send has ended, read by the test that waits for it within a bound.
private final class EndFlag: Sendable {
    private let value = Mutex(false)

    var isSet: Bool { value.withLock { $0 } }

    func set() { value.withLock { $0 = true } }
}
