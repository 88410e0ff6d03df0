import Foundation
import GitbayClient
import GitbayKit
import GitbayTestSupport
import Testing

private func makeClient(_ clock: ManualClock, limits: RateLimits) throws -> (GitbayClient, InMemoryTransport) {
    let transport = InMemoryTransport { _ in
        .gitbay(200, #"{"data":{"number":1},"exit_code":0,"protocol_version":1}"#)
    }
    let configuration = GitbayClientConfiguration(
        baseURL: URL(string: "https://gitbay.example")!, token: BearerToken("gb_x"), rateLimits: limits)
    return (try GitbayClient(configuration: configuration, transport: transport, clock: clock), transport)
}

@Suite struct PacingTests {
    @Test func readsBurstToTheLimitThenFollowTheRefillRate() async throws {
        let clock = ManualClock()
        let (client, _) = try makeClient(clock, limits: RateLimits(latencyAllowance: .zero))
        for _ in 0..<130 {
            _ = try await client.send(SearchCommand(text: "is:open"))
        }
        // 120 a minute: the burst goes at once (its last request keeping a 2 % sliver of a token in
        // hand, 10 ms), then one every half second.
        #expect(clock.sleeps.count == 11)
        #expect(clock.sleeps.dropFirst().allSatisfy { abs(($0 - .milliseconds(500)) / .milliseconds(1)) < 1 })
        #expect(abs((client.metrics.pacingWait - .milliseconds(5_010)) / .milliseconds(1)) < 1)
    }

    @Test func writesArePacedToATenthOfTheRate() async throws {
        let clock = ManualClock()
        let (client, _) = try makeClient(clock, limits: RateLimits(latencyAllowance: .zero))
        for _ in 0..<14 {
            _ = try await client.send(CommentCommand(body: "x"))
        }
        // 12 a minute with a burst of 12: the 12th keeps its sliver (0.1 s), the 13th and 14th wait
        // five seconds each.
        #expect(clock.sleeps.count == 3)
        #expect(abs((clock.now - .milliseconds(10_100)) / .milliseconds(1)) < 1)
    }

    @Test func theTimeScaleSpeedsEveryBucketUp() async throws {
        let clock = ManualClock()
        let (client, _) = try makeClient(clock, limits: RateLimits(timeScale: 10, latencyAllowance: .zero))
        for _ in 0..<14 {
            _ = try await client.send(CommentCommand(body: "x"))
        }
        #expect(abs((clock.now - .milliseconds(1_010)) / .milliseconds(1)) < 1)
    }

    /// A reaction is a write against both of gitbay's write limits (`control/react.go` registers
    /// it without `ReadOnly`; `httpd/apilimit.go` `allow`, `control/ratelimit.go` `writeLimiter`).
    @Test func reactionsArePacedAsWrites() async throws {
        let clock = ManualClock()
        let transport = InMemoryTransport { _ in
            .gitbay(200, #"{"data":{"reaction":"+1"},"exit_code":0,"protocol_version":1}"#)
        }
        let configuration = GitbayClientConfiguration(
            baseURL: URL(string: "https://gitbay.example")!, token: BearerToken("gb_x"),
            rateLimits: RateLimits(accountWritesPerMinute: 6, latencyAllowance: .zero))
        let client = try GitbayClient(configuration: configuration, transport: transport, clock: clock)
        let repository = try RepositoryPath("krz/gitbay")
        for _ in 0..<7 {
            _ = try await client.send(try ReactCommand(.issue, repository: repository, number: 1, reaction: .plusOne))
        }
        // The account's 6 a minute bind before the API's 12: the 6th keeps its sliver (0.2 s), the
        // 7th waits ten seconds.
        #expect(abs((clock.now - .milliseconds(10_200)) / .milliseconds(1)) < 1)
        #expect(client.metrics.writes == 7)
    }

    /// A sibling (`watch`'s setup check) spends from the same budgets, since gitbay's are the
    /// account's, but counts apart, so a pass's line counts only its own requests.
    @Test func aSiblingPacesWithItsClientButCountsApart() async throws {
        let clock = ManualClock()
        let (client, _) = try makeClient(clock, limits: RateLimits(latencyAllowance: .zero))
        let sibling = client.sibling(retry: RetryPolicy(maxAttempts: 1))
        for _ in 0..<120 {
            _ = try await sibling.send(SearchCommand(text: "is:open"))
        }
        #expect(sibling.configuration.retry.maxAttempts == 1)
        _ = try await client.send(SearchCommand(text: "is:open"))
        // The sibling took the burst: the client's first read waits a refill, half a second.
        #expect(abs((clock.now - .milliseconds(510)) / .milliseconds(1)) < 1)
        #expect(sibling.metrics.reads == 120)
        #expect(client.metrics.reads == 1)
    }

    @Test func aBucketRefillsWhileIdle() {
        var bucket = TokenBucket(capacity: 2, perMinute: 60, now: .zero)
        #expect(bucket.reserve(now: .zero) == .zero)
        #expect(bucket.reserve(now: .zero) == .milliseconds(20))
        #expect(bucket.reserve(now: .zero) == .milliseconds(1_020))
        #expect(bucket.reserve(now: .seconds(10)) == .zero)
        bucket.hold(for: .seconds(30), now: .seconds(10))
        #expect(bucket.reserve(now: .seconds(10)) == .seconds(30))
    }

    @Test func aBucketLeavingFullStartsRefillingOnlyAfterTheLatencyAllowance() {
        var bucket = TokenBucket(capacity: 2, perMinute: 60, now: .zero, latencyAllowance: .milliseconds(300))
        #expect(bucket.reserve(now: .zero) == .zero)
        // The second token is the last; refill resumes at 0.3 s, so the sliver takes 0.32 s.
        #expect(bucket.reserve(now: .zero) == .milliseconds(320))
        #expect(bucket.reserve(now: .milliseconds(320)) == .milliseconds(1_000))
    }

    @Test func backoffDoublesUpToTheCapWithJitterInTheUpperHalf() {
        let policy = RetryPolicy(baseDelay: .seconds(1), maxDelay: .seconds(8))
        #expect(policy.backoff(afterAttempt: 1, jitter: 1) == .seconds(1))
        #expect(policy.backoff(afterAttempt: 3, jitter: 1) == .seconds(4))
        #expect(policy.backoff(afterAttempt: 9, jitter: 1) == .seconds(8))
        #expect(policy.backoff(afterAttempt: 3, jitter: 0) == .seconds(2))
    }
}
