import BuildsPlugin
import BuiltinPlugins
import Foundation
import GitbayClient
import GitbayKit
import GitbayPorts
import GitbayTestSupport
import IssuesPlugin
import MergeRequestsPlugin
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

    func write(_ command: ControlCommand) async throws(ForgeFailure) {
        writes.withLock { $0.append(command.argv) }
        if let failWrites { throw failWrites.forgeFailure }
    }
}

/// A writer as the HTTP client is one: a write not yet sent when its task is cancelled is not
/// sent (``ForgeFailure/Kind/stopped``); one on its way runs to its end whatever happens to the task.
///
/// Its first write stays in flight until the test lets it go. With `waitsForBudget`, every write
/// after the first waits for its budget until its task is cancelled, as a stop ends that wait.
private final class HeldWriter: ForgeWriter {
    let writes = Mutex<[[String]]>([])
    let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)
    let (gate, release) = AsyncStream.makeStream(of: Void.self)
    let waitsForBudget: Bool

    init(waitsForBudget: Bool = false) {
        self.waitsForBudget = waitsForBudget
    }

    func write(_ command: ControlCommand) async throws(ForgeFailure) {
        let first = writes.withLock { $0.isEmpty }
        if !first, waitsForBudget {
            arrived.yield()
            do {
                try await untilCancelled()
            } catch {
                throw ForgeFailure(kind: .stopped, message: "stopped while waiting; not sent")
            }
        }
        guard !Task.isCancelled else { throw ForgeFailure(kind: .stopped, message: "stopped before it was sent") }
        if first {
            arrived.yield()
            let gate = gate
            await Task {
                var opening = gate.makeAsyncIterator()
                _ = await opening.next()
            }.value
        }
        writes.withLock { $0.append(command.argv) }
    }
}

private func plan(for issue: GitbayKit.Issue) throws -> Plan {
    Evaluator(registry: registry).plan(rules: try rules(markStale), state: try forge(issue), source: "t")
}

private let idleIssue = GitbayKit.Issue(
    number: 7, title: "Old", state: .open, author: "alice", createdAt: now - 300 * 86_400,
    updatedAt: now - 90 * 86_400)

@Suite(.timeLimit(.minutes(1))) struct ApplierTests {
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

    /// A plan made inside a rule's window and applied outside it sends nothing and says when the
    /// window opens again.
    ///
    /// The window is checked at the apply step's clock, not the plan's. Waiting for the window
    /// leaves the run complete.
    @Test func aSavedPlanAppliedOutsideItsRulesWindowWaits() async throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let today = try #require(Weekday(rawValue: calendar.component(.weekday, from: now)))
        var planned = try plan(for: idleIssue)
        planned.rules[0].schedule = Schedule(days: [today], hours: [], zoneName: "UTC", timeZone: .gmt)
        let forge = FakeForge(idleIssue)
        let later = now + 86_400
        let report = await Applier(registry: registry).apply(
            planned, reader: forge, writer: forge, journal: nil, now: { now }, scheduleNow: { later })
        #expect(forge.writes.withLock { $0 }.isEmpty)
        #expect(report.count(.waiting) == 2)
        #expect(report.isComplete)
        // The next opening is a week after today's midnight, named with its date.
        let nextWeek = try #require(calendar.date(byAdding: .day, value: 7, to: calendar.startOfDay(for: now)))
        let date = nextWeek.formatted(.iso8601.year().month().day())
        #expect(report.outcomes.first?.detail == "outside its schedule; next window \(today.title) \(date) 00:00 UTC")

        let inside = await Applier(registry: registry).apply(
            planned, reader: forge, writer: forge, journal: nil, now: { now }, scheduleNow: { now })
        #expect(inside.count(.applied) == 2)
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

    /// An entry is one unit: once its label failed, its notice is not posted over it.
    @Test func aFailedWriteIsReportedAndTheRestOfItsEntryWaits() async throws {
        let forge = FakeForge(idleIssue, failWrites: GitbayError(kind: .failure, message: "refused", exitCode: 1))
        let report = await Applier(registry: registry).apply(
            try plan(for: idleIssue), reader: forge, writer: forge, journal: nil, now: { now })
        #expect(forge.writes.withLock { $0 } == [["issue", "label", "krz/app", "7", "--add", "stale"]])
        #expect(report.count(.failed) == 1)
        #expect(report.outcomes.last?.detail == "not sent: add-label failed")
        #expect(!report.isComplete)
    }

    /// The client's 401 reaches the engine as a token turned away, through `GitbayPorts`: the first
    /// write stops every later one, as does a server out of reach, and a 429 is one to try again later.
    @Test(arguments: [
        (GitbayError.Kind.unauthorized, 1, true, false), (.transport(.cannotConnect("refused")), 1, true, false),
        (.transport(.tls("bad certificate")), 1, true, false), (.transport(.connectionLost("reset")), 1, false, false),
        (.rateLimited, 1, false, true), (.failure, 1, false, false),
    ])
    func theClientsErrorDecidesWhatTheApplierDoesNext(
        kind: GitbayError.Kind, writes: Int, stops: Bool, retryLater: Bool
    ) async throws {
        let forge = FakeForge(idleIssue, failWrites: GitbayError(kind: kind, message: "no"))
        let report = await Applier(registry: registry).apply(
            try plan(for: idleIssue), reader: forge, writer: forge, journal: nil, now: { now })
        #expect(forge.writes.withLock { $0 }.count == writes)
        #expect((report.tokenRejection != nil) == (stops && kind == .unauthorized))
        #expect((report.unreachable != nil) == (stops && kind != .unauthorized))
        #expect(report.isComplete == false)
        #expect(report.count(.notRun) == (stops ? 1 : 0))
        #expect(report.outcomes.filter(\.retryLater).count == (retryLater ? 1 : 0))
    }

    /// Cancelling the run while a write is in flight lets that write finish, records its result,
    /// and sends nothing after it: a stop never leaves a write whose outcome is unknown.
    @Test func cancellingFinishesTheWriteInFlightRecordsItAndSendsNoMore() async throws {
        let forge = FakeForge(idleIssue)
        let writer = HeldWriter()
        let journal = InMemoryStateStore()
        let planned = try plan(for: idleIssue)
        let applying = Task {
            await Applier(registry: registry).apply(
                planned, reader: forge, writer: writer, journal: journal, now: { now })
        }
        var arrivals = writer.arrivals.makeAsyncIterator()
        _ = await arrivals.next()
        applying.cancel()
        writer.release.finish()
        let report = await applying.value
        #expect(writer.writes.withLock { $0 }.count == 1)
        #expect(report.interrupted)
        #expect(report.count(.applied) == 1)
        #expect(report.count(.notRun) == 1)
        let results = journal.journal.filter { $0.phase == .result }
        #expect(results.map(\.outcome) == ["applied"])
        #expect(results.map(\.argv) == writer.writes.withLock { $0 })
    }

    /// A stop while a write waits for its budget ends the wait at once: the write is not sent, the
    /// journal says so (not-sent, its intent settled), and the run is interrupted.
    @Test func aStopWhileAWriteWaitsToBeSentSendsNothingMoreAndRecordsItNotSent() async throws {
        let forge = FakeForge(idleIssue)
        // Only the stop can end the wait: the run returning proves it did.
        let writer = HeldWriter(waitsForBudget: true)
        let journal = InMemoryStateStore()
        let planned = try plan(for: idleIssue)
        let applying = Task {
            await Applier(registry: registry).apply(
                planned, reader: forge, writer: writer, journal: journal, now: { now })
        }
        writer.release.yield()
        var arrivals = writer.arrivals.makeAsyncIterator()
        _ = await arrivals.next()
        _ = await arrivals.next()
        applying.cancel()
        let report = await applying.value
        #expect(writer.writes.withLock { $0 }.count == 1)
        #expect(report.interrupted)
        #expect(report.outcomes.map(\.status) == [.applied, .notRun])
        #expect(report.outcomes.last?.detail == "stopped before it was sent")
        let results = journal.journal.filter { $0.phase == .result }
        #expect(results.map(\.outcome) == ["applied", "not-sent"])
    }

    /// A stop that comes while the run's last write is in flight still makes it an interrupted run.
    @Test func aStopDuringTheLastWriteStillInterruptsTheRun() async throws {
        let forge = FakeForge(idleIssue)
        let writer = HeldWriter()
        var planned = try plan(for: idleIssue)
        planned.entries[0].actions.removeLast()
        let applying = Task {
            await Applier(registry: registry).apply(planned, reader: forge, writer: writer, journal: nil, now: { now })
        }
        var arrivals = writer.arrivals.makeAsyncIterator()
        _ = await arrivals.next()
        applying.cancel()
        writer.release.yield()
        let report = await applying.value
        #expect(report.outcomes.map(\.status) == [.applied])
        #expect(report.interrupted)
        #expect(!report.isComplete)
    }

    @Test func aCancelledRunSendsNothing() async throws {
        let forge = FakeForge(idleIssue)
        let planned = try plan(for: idleIssue)
        let report = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await Applier(registry: registry).apply(
                planned, reader: forge, writer: forge, journal: nil, now: { now })
        }.value
        #expect(forge.writes.withLock { $0 }.isEmpty)
        #expect(report.interrupted)
        #expect(report.count(.notRun) == 2)
    }

    @Test func noWriteIsSentWhoseIntentTheJournalCouldNotRecord() async throws {
        let forge = FakeForge(idleIssue)
        let journal = FailingJournal(recordsBeforeFailing: 0)
        let report = await Applier(registry: registry).apply(
            try plan(for: idleIssue), reader: forge, writer: forge, journal: journal, now: { now })
        #expect(forge.writes.withLock { $0 }.isEmpty)
        #expect(report.journalFailure == "cannot write to /state: disk full")
        #expect(report.count(.notRun) == 2)
        #expect(!report.isComplete)
    }

    /// The intents of the entry's two actions go on record as one plan first, then the first
    /// intent; its result cannot be: the write it records was sent, and nothing after it is.
    @Test func aResultTheJournalCouldNotRecordStopsTheWritesAfterIt() async throws {
        let forge = FakeForge(idleIssue)
        let journal = FailingJournal(recordsBeforeFailing: 3)
        let report = await Applier(registry: registry).apply(
            try plan(for: idleIssue), reader: forge, writer: forge, journal: journal, now: { now })
        #expect(forge.writes.withLock { $0 }.count == 1)
        #expect(journal.phases == [.planned, .planned, .intent])
        #expect(report.outcomes.map(\.status) == [.applied, .notRun])
        #expect(report.outcomes.first?.detail?.contains("its result could not be recorded") == true)
        #expect(report.journalFailure != nil)
    }

    @Test func anIntentCarriesThePlanReasons() async throws {
        let forge = FakeForge(idleIssue)
        let journal = FailingJournal(recordsBeforeFailing: .max)
        let planned = try plan(for: idleIssue)
        _ = await Applier(registry: registry).apply(
            planned, reader: forge, writer: forge, journal: journal, now: { now })
        let intents = journal.entries.filter { $0.phase == .intent }
        #expect(intents.count == 2)
        #expect(intents.allSatisfy { $0.reasons == planned.entries.first?.reasons })
        #expect(journal.entries.filter { $0.phase != .intent }.allSatisfy { $0.reasons == nil })
    }

    /// Planning and applying ask an action the same questions in the same order, so an item that
    /// is both refused and already done reads the same in the plan and in the apply report.
    @Test func aRefusalWinsOverDoneWhenPlanningAndWhenApplying() async throws {
        let lockRegistry = PluginRegistry(plugins: [IssuesPlugin(), LockPlugin()])
        let lockRule = RuleSet.load(files: [(path: "lock.yml", bytes: Array(lockRules.utf8))], registry: lockRegistry)
            .rules
        var closed = idleIssue
        closed.state = .closed
        let planned = Evaluator(registry: lockRegistry).plan(rules: lockRule, state: try forge(closed), source: "t")
        #expect(planned.entries.first?.actions.first?.status == .refused)
        #expect(planned.entries.first?.actions.first?.note == "a closed issue cannot be locked")

        let pending = Evaluator(registry: lockRegistry).plan(
            rules: lockRule, state: try forge(idleIssue), source: "t")
        #expect(pending.entries.first?.actions.first?.status == .pending)
        let fake = FakeForge(closed)
        let report = await Applier(registry: lockRegistry).apply(
            pending, reader: fake, writer: fake, journal: nil, now: { now })
        #expect(report.outcomes.map(\.status) == [.skipped])
        #expect(report.outcomes.first?.detail == "a closed issue cannot be locked")
        #expect(fake.writes.withLock { $0 }.isEmpty)
    }
}

/// A journal that keeps its first entries and then fails, as one on a filling disk does.
private final class FailingJournal: ApplyJournal {
    private let kept = Mutex<[JournalEntry]>([])
    private let limit: Int

    init(recordsBeforeFailing limit: Int) {
        self.limit = limit
    }

    var entries: [JournalEntry] { kept.withLock { $0 } }
    var phases: [JournalEntry.Phase] { entries.map(\.phase) }

    func record(_ entry: JournalEntry) throws {
        try kept.withLock { kept in
            guard kept.count < limit else { throw JournalFull() }
            kept.append(entry)
        }
    }

    private struct JournalFull: Error, CustomStringConvertible {
        var description: String { "cannot write to /state: disk full" }
    }
}

/// One issue in a forge whose every read has been made.
private func forge(_ issue: GitbayKit.Issue) throws -> ForgeState {
    var repository = RepositoryState(
        path: try RepositoryPath("krz/app"),
        known: Set(BuiltinPlugins.registry.needs))
    repository.dependencies = DependencyStatus(enabled: false)
    repository.issues = [IssueRecord(issue: issue, known: Set(BuiltinPlugins.registry.needs))]
    return ForgeState(now: now, me: "triage-bot", repositories: [repository])
}

private let lockRules = """
    scope: owner:krz
    rules:
      - name: lock-old
        on: issues
        when:
          - idle > 60d
        do:
          - lock
    """

private func isClosed(_ context: ItemContext) -> Bool {
    guard let record = context.item.record as? IssueRecord else { return false }
    return record.issue.state == .closed
}

/// An action that is refused and done on the same items (closed issues), which only the order
/// of the two questions tells apart.
private struct LockPlugin: BotPlugin {
    let name = "lock"

    func fields(for kind: ItemKind) -> [FieldDefinition] { [] }

    func actions(for kind: ItemKind) -> [ActionDefinition] {
        guard kind == .issues else { return [] }
        return [
            ActionDefinition(
                "lock", doc: "Locks the issue.",
                command: { _, context in
                    ControlCommand(argv: ["issue", "lock", "\(context.item.number)"], effect: .write)
                },
                isDone: { _, context in isClosed(context) },
                refusal: { context in isClosed(context) ? "a closed issue cannot be locked" : nil })
        ]
    }
}
