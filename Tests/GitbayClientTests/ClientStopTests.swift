import Foundation
import GitbayClient
import GitbayKit
import GitbayTestSupport
import Synchronization
import Testing
import Timekeeping

/// A clock whose sleeps last until their task is cancelled, each announced as it begins: a test
/// sees the client waiting, stops it there, and sees the wait end without any time passing.
private final class UntilCancelledClock: MonotonicClock {
    let (waits, announce) = AsyncStream.makeStream(of: Duration.self)

    var now: Duration { .zero }

    func sleep(until deadline: Duration) async throws {
        announce.yield(deadline - now)
        try await untilCancelled()
    }
}

/// A transport whose answers wait for the test: each request is announced, then answered with
/// `answer` once the test opens the gate, or given up (`.cancelled`) when its task is cancelled
/// first, as libcurl and URLSession give up a cancelled transfer.
private final class GatedTransport: HTTPTransport {
    let answer: Result<HTTPResponse, TransportError>
    let (arrivals, arrive) = AsyncStream.makeStream(of: HTTPRequest.self)
    let (gate, open) = AsyncStream.makeStream(of: Void.self)
    private let sent = Mutex(0)

    init(_ answer: Result<HTTPResponse, TransportError>) {
        self.answer = answer
    }

    /// How many requests reached the transport.
    var requests: Int { sent.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        sent.withLock { $0 += 1 }
        arrive.yield(request)
        var opening = gate.makeAsyncIterator()
        guard await opening.next() != nil else { throw .cancelled }
        return try answer.get()
    }
}

/// An admission that admits what `admits` says and counts the writes between admission and end.
private final class CountingAdmission: WriteAdmission {
    let admits: Bool
    let inFlight = Mutex(0)
    let admitted = Mutex(0)

    init(admits: Bool) {
        self.admits = admits
    }

    func admitWrite() -> Bool {
        guard admits else { return false }
        admitted.withLock { $0 += 1 }
        inFlight.withLock { $0 += 1 }
        return true
    }

    func writeEnded() {
        inFlight.withLock { $0 -= 1 }
    }
}

private let ok = HTTPResponse.gitbay(200, #"{"data":{"number":7},"exit_code":0,"protocol_version":1}"#)

/// The waits a write can be stopped in before it is sent.
enum WaitBeforeSending: String, CaseIterable, Sendable {
    /// The client's own pacing: the first write spends what the write budget has in hand.
    case pacing
    /// The server's 429 with `Retry-After: 60`, which proves the write was not applied.
    case retryAfter
    /// The backoff after a connection that could not be made, so the write was never sent.
    case backoff
}

/// A client of `transport` on `clock`; by default a write budget of 2 a minute (a tenth of 20
/// requests), so the first write goes at once and the second waits for the budget.
private func makeClient(
    _ transport: any HTTPTransport, clock: any MonotonicClock, admission: (any WriteAdmission)? = nil,
    requestsPerMinute: Double = 20
) throws -> GitbayClient {
    let configuration = GitbayClientConfiguration(
        baseURL: URL(string: "https://gitbay.example")!, token: BearerToken("gb_test"),
        rateLimits: RateLimits(requestsPerMinute: requestsPerMinute))
    return try GitbayClient(
        configuration: configuration, transport: transport, clock: clock, jitter: { 1 }, admission: admission)
}

/// A stop (the task's cancellation) ends the client's waits at once and sends nothing more; a write
/// already on its way runs to its answer.
@Suite(.timeLimit(.minutes(1))) struct ClientStopTests {
    @Test(arguments: WaitBeforeSending.allCases)
    func aStopWhileAWriteWaitsEndsTheWaitAndSendsNothingMore(wait: WaitBeforeSending) async throws {
        let clock = UntilCancelledClock()
        let first: Result<HTTPResponse, TransportError> =
            switch wait {
            case .pacing: .success(ok)
            case .retryAfter:
                .success(
                    .gitbay(
                        429, #"{"error":"rate limited; retry in 60s","protocol_version":1}"#,
                        headers: [HTTPHeader("Retry-After", "60")]))
            case .backoff: .failure(.cannotConnect("Connection refused"))
            }
        let transport = InMemoryTransport { _ throws(TransportError) in try first.get() }
        let client = try makeClient(transport, clock: clock)
        let writing = Task { () async throws -> Void in
            if wait == .pacing { _ = try await client.send(CommentCommand(body: "first")) }
            _ = try await client.send(CommentCommand(body: "second"))
        }
        var waits = clock.waits.makeAsyncIterator()
        let waited = try #require(await waits.next())
        let sentBefore = transport.requests.count
        writing.cancel()
        let result = await writing.result
        #expect(waited > .zero, "\(waited)")
        #expect(transport.requests.count == sentBefore, "sent after the stop")
        #expect(transport.requests.count == 1)
        guard case .failure(let failure) = result else {
            Issue.record("the write went on after the stop")
            return
        }
        let error = try #require(failure as? GitbayError)
        #expect(error.kind == .cancelled)
        #expect(!error.mayHaveApplied)
        #expect(error.message == "stopped while waiting; not sent")
    }

    @Test func aWriteOnItsWayWhenStoppedRunsToItsAnswerAndNothingIsSentAfter() async throws {
        let transport = GatedTransport(.success(ok))
        let admission = CountingAdmission(admits: true)
        // No pacing wait: the second write is stopped at the last look before sending.
        let client = try makeClient(transport, clock: ManualClock(), admission: admission, requestsPerMinute: 6000)
        let writing = Task { () async throws -> [String: Int] in
            let reply = try await client.send(CommentCommand(body: "first"))
            _ = try await client.send(CommentCommand(body: "second"))
            return reply
        }
        var arrivals = transport.arrivals.makeAsyncIterator()
        _ = await arrivals.next()
        writing.cancel()
        #expect(admission.inFlight.withLock { $0 } == 1)
        transport.open.yield()
        let result = await writing.result
        #expect(transport.requests == 1)
        #expect(admission.inFlight.withLock { $0 } == 0)
        guard case .failure(let failure) = result else {
            Issue.record("the second write went out after the stop")
            return
        }
        let error = try #require(failure as? GitbayError)
        // The first write's answer was taken (the second is the one refused), so it is on record.
        #expect(error.kind == .cancelled && error.message == "stopped before it was sent")
        #expect(client.metrics.writes == 1)
    }

    @Test func aReadOnItsWayIsGivenUpWhenStopped() async throws {
        let transport = GatedTransport(.success(ok))
        let client = try makeClient(transport, clock: ManualClock())
        let reading = Task { () async throws -> [String: Int] in
            try await client.send(SearchCommand(text: "is:open"))
        }
        var arrivals = transport.arrivals.makeAsyncIterator()
        _ = await arrivals.next()
        reading.cancel()
        let result = await reading.result
        guard case .failure(let failure) = result else {
            Issue.record("the read was not given up")
            return
        }
        let error = try #require(failure as? GitbayError)
        #expect(error.kind == .cancelled)
    }

    @Test func aWriteTheAdmissionRefusesIsNotSent() async throws {
        let transport = InMemoryTransport { _ throws(TransportError) in ok }
        let admission = CountingAdmission(admits: false)
        let client = try makeClient(transport, clock: ManualClock(), admission: admission)
        await #expect(throws: GitbayError.self) { try await client.send(CommentCommand(body: "hello")) }
        #expect(transport.requests.isEmpty)
        // A read needs no admission.
        _ = try await client.send(SearchCommand(text: "is:open"))
        #expect(transport.requests.count == 1)
        #expect(admission.admitted.withLock { $0 } == 0)
    }
}
