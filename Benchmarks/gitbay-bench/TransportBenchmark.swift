import Foundation
import GitbayClient
import GitbayTestSupport

/// `gitbay-bench transport`: wall time and process CPU of each transport against a local server.
///
/// It answers the question behind ``PlatformTransport``: what waiting on a slow forge costs
/// in CPU (the FoundationNetworking spin) and how fast a burst of small reads goes. It also
/// measures how closely each transport keeps a deadline and how soon it lets go when cancelled or
/// past the answer cap, as a ratio to the time it had: the transport tests check only the
/// outcome, so no test depends on how busy the machine is.
enum TransportBenchmark {
    static let summary = "compare the HTTP transports: waiting (CPU), small GETs, deadlines, cancelling, the answer cap"

    /// One measured scenario.
    struct Row: Sendable {
        var transport: String
        var scenario: String
        var requests: Int
        var wall: Double
        var cpu: Double
        /// The time the scenario had (a deadline), when its wall time is judged against one.
        var allowed: Double?
    }

    static let slowDelay = 1.5
    static let sequentialSlow = 3
    static let concurrentSlow = 5
    static let burst = 300
    static let idleSeconds = 2
    static let deadline = 1.0
    /// How long a request runs before it is cancelled, and the deadline it would otherwise meet.
    static let cancelAfter = 0.3
    static let cancelledDeadline = 30.0

    static func run(_ arguments: [String]) async throws {
        var transports: [(String, @Sendable () -> any HTTPTransport)] = []
        #if os(Linux)
        transports.append(("curl", { CurlTransport() }))
        #endif
        transports.append(("urlsession", { URLSessionTransport() }))
        if let only = arguments.first {
            transports = transports.filter { $0.0 == only }
            guard !transports.isEmpty else {
                print("usage: gitbay-bench transport [curl|urlsession]")
                return
            }
        }
        let rows = try await TransportTestServer.run { server in
            var rows: [Row] = []
            for (name, make) in transports {
                rows += try await measure(name, transport: make(), server: server)
            }
            return rows
        }
        printTable(rows)
    }

    private static func measure(
        _ name: String, transport: any HTTPTransport, server: TransportTestServer
    ) async throws
        -> [Row]
    {
        let slow = request(server.url("/slow?delay=\(slowDelay)"))
        let small = request(server.url("/small"))
        _ = try await transport.send(small)
        var rows: [Row] = []
        rows.append(
            try await timed(name, "slow \(slowDelay)s, sequential", count: sequentialSlow) {
                for _ in 0..<sequentialSlow { try await expectOK(transport.send(slow)) }
            })
        rows.append(
            try await timed(name, "slow \(slowDelay)s, concurrent", count: concurrentSlow) {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<concurrentSlow {
                        group.addTask { try await expectOK(transport.send(slow)) }
                    }
                    try await group.waitForAll()
                }
            })
        rows.append(
            try await timed(name, "small GET burst, sequential", count: burst) {
                for _ in 0..<burst { try await expectOK(transport.send(small)) }
            })
        rows.append(
            try await timed(name, "idle \(idleSeconds)s after use", count: 0) {
                try await Task.sleep(for: .seconds(idleSeconds))
            })
        for (path, reply) in [("/stall", "stalled"), ("/drip", "dripping")] {
            let request = request(server.url(path), timeout: .seconds(deadline))
            rows.append(
                try await timed(name, "deadline \(deadline)s, \(reply) reply", count: 0, allowed: deadline) {
                    try expect(.timedOut, await failure(of: request, using: transport))
                })
        }
        let stalled = request(server.url("/stall"), timeout: .seconds(cancelledDeadline))
        let task = Task { await failure(of: stalled, using: transport) }
        try await Task.sleep(for: .seconds(cancelAfter))
        rows.append(
            try await timed(name, "cancel, \(cancelledDeadline)s deadline", count: 0, allowed: cancelledDeadline) {
                task.cancel()
                try expect(.cancelled, await task.value)
            })
        let cap = GitbayClientConfiguration.defaultMaxResponseSize
        rows.append(
            try await timed(name, "endless body to the \(cap) cap", count: 0) {
                try expect(.responseTooLarge(cap), await failure(of: request(server.url("/endless")), using: transport))
            })
        return rows
    }

    /// The transport error `request` failed with, or nil when it got a response.
    private static func failure(of request: HTTPRequest, using transport: any HTTPTransport) async -> TransportError? {
        do {
            _ = try await transport.send(request)
            return nil
        } catch {
            return error
        }
    }

    private static func expect(_ expected: TransportError, _ outcome: TransportError?) throws {
        guard outcome == expected else {
            throw UnexpectedOutcome(expected: "\(expected)", got: outcome.map { "\($0)" } ?? "a response")
        }
    }

    private static func request(_ url: URL, timeout: Duration = .seconds(30)) -> HTTPRequest {
        HTTPRequest(
            method: .get, url: url, headers: [HTTPHeader("User-Agent", HTTPRequest.defaultUserAgent)],
            timeout: timeout)
    }

    private static func expectOK(_ response: HTTPResponse) throws {
        guard response.status == 200 else { throw UnexpectedStatus(status: response.status) }
    }

    private static func timed(
        _ transport: String, _ scenario: String, count: Int, allowed: Double? = nil, _ body: () async throws -> Void
    ) async throws -> Row {
        let clock = ContinuousClock()
        let cpuBefore = ProcessCPU.now()
        let start = clock.now
        try await body()
        let elapsed = start.duration(to: clock.now)
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Row(
            transport: transport, scenario: scenario, requests: count, wall: wall,
            cpu: ProcessCPU.now().seconds - cpuBefore.seconds, allowed: allowed)
    }

    private static func printTable(_ rows: [Row]) {
        func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
        func number(_ value: Double) -> String { String(format: "%8.2f", value) }
        print(pad("transport", 11) + pad("scenario", 31) + "requests    wall s     CPU s     req/s  wall/allowed")
        for row in rows {
            let rate = row.requests > 0 ? number(Double(row.requests) / row.wall) : "       -"
            let share = row.allowed.map { String(format: "%12.3f", row.wall / $0) } ?? "           -"
            print(
                pad(row.transport, 11) + pad(row.scenario, 31) + String(format: "%8d", row.requests) + "  "
                    + number(row.wall) + "  " + number(row.cpu) + "  " + rate + "  " + share)
        }
    }

    /// A benchmark request that did not get the 200 it expects.
    struct UnexpectedStatus: Error {
        var status: Int
    }

    /// A benchmark request that did not fail the way its scenario expects.
    struct UnexpectedOutcome: Error {
        var expected: String
        var got: String
    }
}
