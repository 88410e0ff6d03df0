import Foundation
import GitbayClient
import GitbayKit
import RuleEngine
import Synchronization
import Testing

/// One issue behind the reader and writer protocols: `issue show` reads it, writes are recorded
/// (and fail when told to), so the applier's decisions are seen without a server.
private final class FakeForge: ForgeReader, ForgeWriter {
    let issue: Mutex<GitbayKit.Issue>
    let writes = Mutex<[[String]]>([])
    let failWrites: GitbayError?

    init(_ issue: GitbayKit.Issue, failWrites: GitbayError? = nil) {
        self.issue = Mutex(issue)
        self.failWrites = failWrites
    }

    func send<Command: GitbayCommand>(_ command: Command) async throws -> Command.Response {
        guard command is IssueShowCommand, let issue = issue.withLock({ $0 }) as? Command.Response else {
            throw GitbayError(kind: .usage, message: "not faked: \(command.argv)")
        }
        return issue
    }

    func all<Command: PagedCommand>(_ command: Command) async throws -> [Command.Item] {
        throw GitbayError(kind: .usage, message: "not faked: \(command.argv)")
    }

    func write(_ command: ControlCommand) async throws(GitbayError) {
        writes.withLock { $0.append(command.argv) }
        if let failWrites { throw failWrites }
    }
}

private func plan(for issue: GitbayKit.Issue) throws -> Plan {
    let repository = RepositoryState(
        path: try RepositoryPath("krz/app"), dependencies: DependencyStatus(enabled: false),
        issues: [IssueRecord(issue: issue, known: Set(ReadNeed.allCases))], known: Set(ReadNeed.allCases))
    let state = ForgeState(now: now, me: "triage-bot", repositories: [repository])
    return Evaluator(registry: registry).plan(rules: try rules(markStale), state: state, source: "t")
}

private let idleIssue = GitbayKit.Issue(
    number: 7, title: "Old", state: .open, author: "alice", createdAt: now - 300 * 86_400,
    updatedAt: now - 90 * 86_400)

@Suite struct ApplierTests {
    @Test func pendingActionsAreSentInOrder() async throws {
        let forge = FakeForge(idleIssue)
        let report = await Applier(registry: registry).apply(
            try plan(for: idleIssue), reader: forge, writer: forge, journal: nil, now: { now })
        #expect(
            forge.writes.withLock { $0 }.map { $0.prefix(2).joined(separator: " ") } == [
                "issue label", "issue comment",
            ])
        #expect(report.count(.applied) == 2)
        #expect(report.isComplete)
    }

    @Test func anEntryWhoseConditionsNoLongerHoldIsSkipped() async throws {
        let planned = try plan(for: idleIssue)
        var commented = idleIssue
        commented.comments = [GitbayKit.Comment(author: "bob", body: "still here", createdAt: now - 60)]
        let forge = FakeForge(commented)
        let report = await Applier(registry: registry).apply(
            planned, reader: forge, writer: forge, journal: nil, now: { now })
        #expect(forge.writes.withLock { $0 }.isEmpty)
        #expect(report.count(.skipped) == 2)
        #expect(report.outcomes.first?.detail?.hasPrefix("no longer matches: idle > 60d") == true)
    }

    @Test func anActionSomeoneAlreadyDidIsNotSent() async throws {
        let planned = try plan(for: idleIssue)
        var labelled = idleIssue
        labelled.labels = ["stale"]
        let forge = FakeForge(labelled)
        let report = await Applier(registry: registry).apply(
            planned, reader: forge, writer: forge, journal: nil, now: { now })
        // The label is there now, so the entry no longer matches ("labels lacks [stale]").
        #expect(forge.writes.withLock { $0 }.isEmpty)
        #expect(report.count(.skipped) == 2)
    }

    @Test func aFailedWriteIsReportedAndTheOthersStillRun() async throws {
        let forge = FakeForge(idleIssue, failWrites: GitbayError(kind: .failure, message: "refused", exitCode: 1))
        let report = await Applier(registry: registry).apply(
            try plan(for: idleIssue), reader: forge, writer: forge, journal: nil, now: { now })
        #expect(forge.writes.withLock { $0 }.count == 2)
        #expect(report.count(.failed) == 2)
        #expect(!report.isComplete)
    }

    @Test func aStopRequestLeavesTheRestNotRun() async throws {
        let forge = FakeForge(idleIssue)
        let report = await Applier(registry: registry).apply(
            try plan(for: idleIssue), reader: forge, writer: forge, journal: nil, now: { now }, shouldStop: { true })
        #expect(forge.writes.withLock { $0 }.isEmpty)
        #expect(report.interrupted)
        #expect(report.count(.notRun) == 2)
    }
}
