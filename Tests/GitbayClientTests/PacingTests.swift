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
        let (client, _) = try makeClient(clock, limits: .gitbayDefault)
        for _ in 0..<130 {
            _ = try await client.send(SearchCommand(text: "is:open"))
        }
        // 120 a minute: the burst of 120 goes at once, then one every half second.
        #expect(clock.sleeps.count == 10)
        #expect(clock.sleeps.allSatisfy { abs(($0 - .milliseconds(500)) / .milliseconds(1)) < 1 })
        #expect(client.metrics.pacingWait >= .milliseconds(4_990))
    }

    @Test func writesArePacedToATenthOfTheRate() async throws {
        let clock = ManualClock()
        let (client, _) = try makeClient(clock, limits: .gitbayDefault)
        for _ in 0..<14 {
            _ = try await client.send(CommentCommand(body: "x"))
        }
        // 12 a minute with a burst of 12: the 13th and 14th wait five seconds each.
        #expect(clock.sleeps.count == 2)
        #expect(abs((clock.now - .seconds(10)) / .milliseconds(1)) < 1)
    }

    @Test func theTimeScaleSpeedsEveryBucketUp() async throws {
        let clock = ManualClock()
        let (client, _) = try makeClient(clock, limits: RateLimits(timeScale: 10))
        for _ in 0..<14 {
            _ = try await client.send(CommentCommand(body: "x"))
        }
        #expect(abs((clock.now - .seconds(1)) / .milliseconds(1)) < 1)
    }

    @Test func aBucketRefillsWhileIdle() {
        var bucket = TokenBucket(capacity: 2, perMinute: 60, now: .zero)
        #expect(bucket.reserve(now: .zero) == .zero)
        #expect(bucket.reserve(now: .zero) == .zero)
        #expect(bucket.reserve(now: .zero) == .seconds(1))
        #expect(bucket.reserve(now: .seconds(10)) == .zero)
        bucket.hold(for: .seconds(30), now: .seconds(10))
        #expect(bucket.reserve(now: .seconds(10)) == .seconds(30))
    }

    @Test func backoffDoublesUpToTheCapWithJitterInTheUpperHalf() {
        let policy = RetryPolicy(baseDelay: .seconds(1), maxDelay: .seconds(8))
        #expect(policy.backoff(afterAttempt: 1, jitter: 1) == .seconds(1))
        #expect(policy.backoff(afterAttempt: 3, jitter: 1) == .seconds(4))
        #expect(policy.backoff(afterAttempt: 9, jitter: 1) == .seconds(8))
        #expect(policy.backoff(afterAttempt: 3, jitter: 0) == .seconds(2))
    }
}
