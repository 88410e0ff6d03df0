import Foundation
import GitbayClient
import GitbayKit
import GitbayTestSupport
import Synchronization
import Testing

/// A forge state with one repository of `count` open issues, as JSON text in gitbay's field names.
private func forge(issues count: Int) -> String {
    let issues = (1...max(count, 1)).prefix(count).map { number in
        #"{"number":\#(number),"title":"Issue \#(number)","state":"open","author":"alice","#
            + #""created_at":"2026-01-01T00:00:00.000Z"}"#
    }
    return #"{"format":"gitbay-forge-state/1","now":"2026-11-29T12:00:00.000Z","me":"triage-bot","#
        + #""repos":[{"path":"krz/big","default_branch":"main","branches":{"main":"\#(String(repeating: "a", count: 40))"},"#
        + #""issues":[\#(issues.joined(separator: ","))]}]}"#
}

private let smallForge = SimulatorProcess.repositoryRoot.appendingPathComponent(
    "Tests/Simulator/fixtures/small-forge.json")

private func client(
    for simulator: SimulatorProcess, access: GitbayClientConfiguration.Access = .readWrite,
    limits: RateLimits = .gitbayDefault, onEvent: @escaping @Sendable (ClientEvent) -> Void = { _ in }
) throws -> GitbayClient {
    let configuration = GitbayClientConfiguration(
        baseURL: simulator.baseURL, token: BearerToken(simulator.token), access: access, requestTimeout: .seconds(60),
        rateLimits: limits, retry: RetryPolicy(baseDelay: .milliseconds(50), maxDelay: .milliseconds(400)))
    return try GitbayClient(configuration: configuration, transport: PlatformTransport.make(), onEvent: onEvent)
}

private func integer(_ stats: [String: Any], _ key: String) -> Int {
    (stats[key] as? NSNumber)?.intValue ?? -1
}

@Suite struct ClientAgainstSimulatorTests {
    @Test func aThousandIssuesTakeFiveRequests() async throws {
        try await SimulatorProcess.run(state: forge(issues: 1000)) { simulator in
            let client = try client(for: simulator)
            let rows = try await client.all(IssueListCommand(repository: RepositoryPath("krz/big")))
            #expect(rows.count == 1000)
            #expect(Set(rows.map(\.number)) == Set(1...1000))
            #expect(rows.allSatisfy { $0.labels == nil })
            #expect(client.metrics.reads == 5)
            #expect(integer(try await simulator.stats(), "reads") == 5)
        }
    }

    @Test func aClientPacedToTheServerDrawsNo429() async throws {
        let options = ["--api-rate", "30", "--time-scale", "30"]
        try await SimulatorProcess.run(state: forge(issues: 1), options: options) { simulator in
            let client = try client(for: simulator, limits: RateLimits(requestsPerMinute: 30, timeScale: 30))
            // All at once, so the burst of 30 is spent at the start and the rest must be paced.
            let names = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<45 {
                    group.addTask { try await client.send(WhoAmICommand()).username }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(names.count == 45)
            #expect(client.metrics.rateLimitedResponses == 0)
            #expect(client.metrics.pacingWait > .zero)
            #expect(integer(try await simulator.stats(), "rate_limited") == 0)
        }
    }

    @Test func a429IsWaitedOut() async throws {
        // The server's own limiter answers exactly like this fault (status, header, body); a fault
        // makes the test independent of how fast this machine sends.
        let options = ["--fault", "429,times=2,retry_after=1"]
        try await SimulatorProcess.run(state: forge(issues: 1), options: options) { simulator in
            let client = try client(for: simulator)
            for _ in 0..<3 {
                let identity = try await client.send(WhoAmICommand())
                #expect(identity.username == "triage-bot")
            }
            #expect(client.metrics.rateLimitedResponses == 2)
            #expect(client.metrics.serverWait >= .seconds(2))
            #expect(client.metrics.reads == 5)
            #expect(integer(try await simulator.stats(), "rate_limited") == 2)
        }
    }

    @Test func a503IsWaitedOut() async throws {
        let options = ["--fault", "503,times=2,retry_after=1"]
        try await SimulatorProcess.run(state: forge(issues: 1), options: options) { simulator in
            let client = try client(for: simulator)
            let identity = try await client.send(WhoAmICommand())
            #expect(identity.username == "triage-bot")
            #expect(client.metrics.busyResponses == 2)
            #expect(client.metrics.serverWait >= .seconds(2))
        }
    }

    @Test func aReadOnlyClientRefusesAWriteWithoutSendingIt() async throws {
        try await SimulatorProcess.run(stateFile: smallForge) { simulator in
            let client = try client(for: simulator, access: .readOnly)
            let comment = try IssueCommentCommand(repository: RepositoryPath("krz/gitbay"), number: 214, body: "hi")
            let error = await #expect(throws: GitbayError.self) { try await client.send(comment) }
            #expect(error?.kind == .readOnlyClient)
            let stats = try await simulator.stats()
            #expect(integer(stats, "reads") == 0)
            #expect(integer(stats, "writes") == 0)
            #expect(try simulator.journalEntries().isEmpty)
        }
    }

    @Test func aWriteIsAppliedOnceAndReadBack() async throws {
        try await SimulatorProcess.run(stateFile: smallForge) { simulator in
            let client = try client(for: simulator)
            let repository = try RepositoryPath("krz/gitbay")
            let reply = try await client.send(IssueLabelCommand(repository: repository, number: 213, add: ["stale"]))
            #expect(reply.labels == ["stale"])
            let issue = try await client.send(IssueShowCommand(repository: repository, number: 213))
            #expect(issue.labels == ["stale"])
            let journal = try simulator.journalEntries()
            #expect(journal.count == 1)
            #expect(journal.first?["argv"] as? [String] == ["issue", "label", "krz/gitbay", "213", "--add", "stale"])
            #expect(journal.first?["applied"] as? Bool == true)
        }
    }

    @Test func aWriteWhoseReplyIsLostIsNotSentAgain() async throws {
        let options = ["--fault", "reset-after,times=1,method=POST"]
        try await SimulatorProcess.run(stateFile: smallForge, options: options) { simulator in
            let client = try client(for: simulator)
            let repository = try RepositoryPath("krz/gitbay")
            let comment = try IssueCommentCommand(repository: repository, number: 214, body: "Still happening?")
            let error = await #expect(throws: GitbayError.self) { try await client.send(comment) }
            #expect(error?.mayHaveApplied == true)
            let journal = try simulator.journalEntries()
            #expect(journal.count == 1)
            #expect(journal.first?["applied"] as? Bool == true)
        }
    }

    @Test func theTokenAppearsInNoErrorAndNoEvent() async throws {
        try await SimulatorProcess.run(stateFile: smallForge) { simulator in
            let events = Mutex<[ClientEvent]>([])
            let client = try client(for: simulator) { event in events.withLock { $0.append(event) } }
            _ = try await client.send(WhoAmICommand())
            try await simulator.control(#"{"revoke":true}"#)
            let error = try #require(await #expect(throws: GitbayError.self) { try await client.send(WhoAmICommand()) })
            #expect(error.kind == .unauthorized)
            let texts = ["\(error)", String(reflecting: error), error.message] + events.withLock { $0 }.map { "\($0)" }
            #expect(texts.allSatisfy { !$0.contains(simulator.token) })
            #expect(!texts.isEmpty)
        }
    }

    /// gitbay's exit codes decide what the client does (`internal/control/mr.go` `mergeMR`,
    /// `internal/control/mergequeue.go` `cancelQueuedMerge`): merging a merged merge request is a
    /// usage refusal, exit 2, final and sent once; cancelling a merge nobody queued is exit 1, a
    /// refusal of the state, also sent once.
    @Test func refusalsAreTakenByExitCodeAndNeverRetried() async throws {
        try await SimulatorProcess.run(stateFile: smallForge, options: ["--clock", "frozen"]) { simulator in
            let client = try client(for: simulator)
            struct Reply: Decodable, Sendable {}
            for (argv, kind, code) in [
                (["mr", "merge", "krz/gitbay", "150"], GitbayError.Kind.usage, 2),
                (["mr", "merge", "krz/gitbay", "158", "--cancel"], .failure, 1),
            ] {
                let before = integer(try await simulator.stats(), "writes")
                await #expect {
                    _ = try await client.send(ControlCommand(argv: argv, effect: .write), expecting: Reply.self)
                } throws: { error in
                    guard let error = error as? GitbayError else { return false }
                    return error.kind == kind && error.exitCode == code && !error.mayHaveApplied
                }
                #expect(integer(try await simulator.stats(), "writes") == before + 1, "\(argv) is sent once")
            }
        }
    }
}
