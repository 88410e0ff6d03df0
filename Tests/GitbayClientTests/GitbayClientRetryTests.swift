import Foundation
import GitbayClient
import GitbayKit
import GitbayTestSupport
import Synchronization
import Testing

private let secret = "gb_" + String(repeating: "9f", count: 32)

/// Answers with each response in turn (transport failures included), then repeats the last.
private func scripted(_ answers: [Result<HTTPResponse, TransportError>]) -> InMemoryTransport {
    let index = Mutex(0)
    return InMemoryTransport { _ throws(TransportError) in
        let answer = index.withLock { index in
            defer { index += 1 }
            return answers[min(index, answers.count - 1)]
        }
        return try answer.get()
    }
}

private func makeClient(
    _ transport: InMemoryTransport, clock: ManualClock, maxAttempts: Int = 5
) throws
    -> GitbayClient
{
    let configuration = GitbayClientConfiguration(
        baseURL: URL(string: "https://gitbay.example")!, token: BearerToken(secret),
        retry: RetryPolicy(maxAttempts: maxAttempts, baseDelay: .seconds(1), maxDelay: .seconds(4)))
    return try GitbayClient(configuration: configuration, transport: transport, clock: clock, jitter: { 1 })
}

private let ok = HTTPResponse.gitbay(200, #"{"data":{"number":7},"exit_code":0,"protocol_version":1}"#)
private let rateLimited = HTTPResponse.gitbay(
    429, #"{"error":"rate limited; retry in 7s","protocol_version":1}"#, headers: [HTTPHeader("Retry-After", "7")])

@Suite struct GitbayClientRetryTests {
    @Test func a429IsWaitedOutForTheTimeTheServerNames() async throws {
        let clock = ManualClock()
        let transport = scripted([.success(rateLimited), .success(ok)])
        let client = try makeClient(transport, clock: clock)
        let reply = try await client.send(SearchCommand(text: "is:open"))
        #expect(reply == ["number": 7])
        #expect(transport.requests.count == 2)
        #expect(clock.sleeps.contains(.seconds(7)))
        #expect(client.metrics.rateLimitedResponses == 1)
        #expect(client.metrics.serverWait >= .seconds(7))
        #expect(client.metrics.retries == 1)
    }

    @Test func aWriteRefusedWith429IsResentBecauseItWasNeverApplied() async throws {
        let clock = ManualClock()
        let transport = scripted([.success(rateLimited), .success(ok)])
        let client = try makeClient(transport, clock: clock)
        _ = try await client.send(CommentCommand(body: "hello"))
        #expect(transport.requests.count == 2)
        #expect(transport.requests.allSatisfy { $0.method == .post })
    }

    @Test func a503IsWaitedOut() async throws {
        let clock = ManualClock()
        let busy = HTTPResponse.gitbay(
            503, #"{"error":"busy","exit_code":1,"protocol_version":1}"#, headers: [HTTPHeader("Retry-After", "2")])
        let transport = scripted([.success(busy), .success(busy), .success(ok)])
        let client = try makeClient(transport, clock: clock)
        _ = try await client.send(SearchCommand(text: "is:open"))
        #expect(clock.sleeps.filter { $0 == .seconds(2) }.count == 2)
        #expect(client.metrics.busyResponses == 2)
    }

    @Test func tooManyWritesBacksOffForTheTimeInTheMessage() async throws {
        let clock = ManualClock()
        let refusal = HTTPResponse.gitbay(
            403,
            #"{"error":"too many writes: 60 a minute per account; try again in 3s","exit_code":4,"protocol_version":1}"#
        )
        let transport = scripted([.success(refusal), .success(ok)])
        let client = try makeClient(transport, clock: clock)
        _ = try await client.send(CommentCommand(body: "hello"))
        #expect(clock.sleeps.contains(.seconds(3)))
        #expect(client.metrics.tooManyWritesResponses == 1)
    }

    @Test func aRetryAfterLongerThanThePolicyAllowsFailsAsRateLimited() async throws {
        let clock = ManualClock()
        let long = HTTPResponse.gitbay(
            429, #"{"error":"rate limited; retry in 900s","protocol_version":1}"#,
            headers: [HTTPHeader("Retry-After", "900")])
        let transport = scripted([.success(long)])
        let client = try makeClient(transport, clock: clock)
        let error = await #expect(throws: GitbayError.self) {
            try await client.send(SearchCommand(text: "is:open"))
        }
        #expect(error?.kind == .rateLimited)
        #expect(error?.retryAfter == .seconds(900))
        #expect(error?.isTemporary == true)
        #expect(transport.requests.count == 1)
    }

    @Test func readsAreRetriedWithCappedExponentialBackoff() async throws {
        let clock = ManualClock()
        let transport = scripted([
            .failure(.connectionLost("reset")), .failure(.timedOut),
            .success(HTTPResponse(status: 200, body: Data("{\"data\":".utf8))),
            .success(HTTPResponse.gitbay(500, #"{"error":"internal error","protocol_version":1}"#)),
            .success(ok),
        ])
        let client = try makeClient(transport, clock: clock)
        _ = try await client.send(SearchCommand(text: "is:open"))
        #expect(transport.requests.count == 5)
        #expect(clock.sleeps == [.seconds(1), .seconds(2), .seconds(4), .seconds(4)])
        #expect(client.metrics.backoffWait == .seconds(11))
    }

    @Test func readsGiveUpAfterTheLastAttempt() async throws {
        let clock = ManualClock()
        let transport = scripted([.failure(.connectionLost("reset"))])
        let client = try makeClient(transport, clock: clock, maxAttempts: 3)
        let error = await #expect(throws: GitbayError.self) {
            try await client.send(SearchCommand(text: "is:open"))
        }
        #expect(error?.kind == .transport(.connectionLost("reset")))
        #expect(transport.requests.count == 3)
    }

    @Test(arguments: [
        TransportError.connectionLost("reset"), .timedOut, .other("weird"),
    ])
    func aWriteWhoseFateIsUnknownIsNeverResent(failure: TransportError) async throws {
        let transport = scripted([.failure(failure), .success(ok)])
        let client = try makeClient(transport, clock: ManualClock())
        let error = await #expect(throws: GitbayError.self) {
            try await client.send(CommentCommand(body: "hello"))
        }
        #expect(error?.mayHaveApplied == true)
        #expect(transport.requests.count == 1)
    }

    @Test func aWriteThatNeverConnectedIsResent() async throws {
        let transport = scripted([.failure(.cannotConnect("refused")), .success(ok)])
        let client = try makeClient(transport, clock: ManualClock())
        _ = try await client.send(CommentCommand(body: "hello"))
        #expect(transport.requests.count == 2)
    }

    /// A garbled success, or an answer past the cap: the write ran, or may have, before its answer went wrong.
    @Test(arguments: [
        Result<HTTPResponse, TransportError>.success(HTTPResponse(status: 200, body: Data("<html>".utf8))),
        .failure(.responseTooLarge(.mebibytes(32))),
    ])
    func aWriteWhoseAnswerIsNoGitbayReplyIsReportedAsPossiblyApplied(
        answer: Result<HTTPResponse, TransportError>
    ) async throws {
        let transport = scripted([answer, .success(ok)])
        let client = try makeClient(transport, clock: ManualClock())
        let error = await #expect(throws: GitbayError.self) {
            try await client.send(CommentCommand(body: "hello"))
        }
        #expect(error?.kind == .malformedResponse)
        #expect(error?.mayHaveApplied == true)
        #expect(transport.requests.count == 1)
    }

    @Test func aReadWhoseAnswerPassedTheCapIsSentAgain() async throws {
        let clock = ManualClock()
        let transport = scripted([.failure(.responseTooLarge(.mebibytes(32))), .success(ok)])
        let client = try makeClient(transport, clock: clock)
        #expect(try await client.send(SearchCommand(text: "is:open")) == ["number": 7])
        #expect(transport.requests.count == 2)
        #expect(clock.sleeps == [.seconds(1)])
    }

    @Test func aReadWhoseAnswersAllPassTheCapFailsAsMalformedNamingTheCap() async throws {
        let transport = scripted([.failure(.responseTooLarge(.mebibytes(32)))])
        let client = try makeClient(transport, clock: ManualClock(), maxAttempts: 3)
        let error = await #expect(throws: GitbayError.self) {
            try await client.send(SearchCommand(text: "is:open"))
        }
        #expect(error?.kind == .malformedResponse)
        #expect(error?.message == "the server's answer passed the 32 MiB cap (max_response_size)")
        #expect(transport.requests.count == 3)
    }

    @Test func everyRequestCarriesTheConfiguredCap() async throws {
        let transport = scripted([.success(ok)])
        let configuration = GitbayClientConfiguration(
            baseURL: URL(string: "https://gitbay.example")!, token: BearerToken(secret),
            maxResponseSize: .kibibytes(64))
        let client = try GitbayClient(configuration: configuration, transport: transport, clock: ManualClock())
        _ = try await client.send(SearchCommand(text: "is:open"))
        _ = try await client.send(CommentCommand(body: "hello"))
        #expect(transport.requests.map(\.maxResponseSize) == [.kibibytes(64), .kibibytes(64)])
        #expect(GitbayClientConfiguration.defaultMaxResponseSize == .mebibytes(32))
    }

    @Test(arguments: [
        (
            401, #"{"error":"invalid or expired token","protocol_version":1}"#, GitbayError.Kind.unauthorized,
            nil as Int?
        ),
        (404, #"{"error":"issue 9 not found","exit_code":3,"protocol_version":1}"#, .notFound, 3),
        (
            403, #"{"error":"this token is read-only; issue label modifies state","exit_code":4,"protocol_version":1}"#,
            .denied, 4
        ),
        (400, #"{"error":"already closed","exit_code":2,"protocol_version":1}"#, .usage, 2),
        (500, #"{"error":"name taken","exit_code":1,"protocol_version":1}"#, .failure, 1),
        (404, #"{"error":"unknown command frob","protocol_version":1}"#, .usage, nil),
        (400, #"{"error":"issue label changes state; POST it to /api/v1/cmd","protocol_version":1}"#, .usage, nil),
        (200, #"{"data":{"number":7},"exit_code":0,"protocol_version":2}"#, .unsupportedProtocol(2), 0),
    ])
    func refusalsAreTypedByStatusAndExitCode(
        status: Int, body: String, kind: GitbayError.Kind, exit: Int?
    )
        async throws
    {
        let transport = scripted([.success(.gitbay(status, body))])
        let client = try makeClient(transport, clock: ManualClock())
        let error = await #expect(throws: GitbayError.self) {
            try await client.send(CommentCommand(body: "hello"))
        }
        #expect(error?.kind == kind)
        #expect(error?.exitCode == exit)
        #expect(error?.httpStatus == status)
        #expect(transport.requests.count == 1)
    }

    @Test func theTokenNeverAppearsInAnError() async throws {
        let echo = HTTPResponse.gitbay(401, #"{"error":"invalid or expired token \#(secret)","protocol_version":1}"#)
        let transport = scripted([.success(echo)])
        let client = try makeClient(transport, clock: ManualClock())
        let error = try #require(
            await #expect(throws: GitbayError.self) { try await client.send(SearchCommand(text: "x y")) })
        #expect(!"\(error)".contains(secret))
        #expect(!String(reflecting: error).contains(secret))
        #expect(!error.message.contains(secret))
        #expect(!"\(BearerToken(secret))".contains(secret))
        var dumped = ""
        dump(client.configuration, to: &dumped)
        #expect(!dumped.contains(secret))
    }
}
