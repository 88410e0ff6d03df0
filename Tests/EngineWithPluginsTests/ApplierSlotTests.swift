import BuiltinPlugins
import Foundation
import GitbayClient
import GitbayKit
import RuleEngine
import Synchronization
import Testing

/// Issues behind the reader and writer protocols, each as `issue show` answers it now; writes are
/// recorded.
private final class IssueForge: ForgeReader, ForgeWriter {
    let issues: Mutex<[Int: GitbayKit.Issue]>
    let writes = Mutex<[[String]]>([])

    init(_ issues: [GitbayKit.Issue]) {
        self.issues = Mutex(Dictionary(uniqueKeysWithValues: issues.map { ($0.number, $0) }))
    }

    func send<Command: GitbayCommand>(_ command: Command) async throws -> Command.Response {
        guard let show = command as? IssueShowCommand,
            let issue = issues.withLock({ $0[show.number] }) as? Command.Response
        else {
            throw GitbayError(kind: .usage, message: "not faked: \(command.argv)")
        }
        return issue
    }

    func all<Command: PagedCommand>(_ command: Command) async throws -> [Command.Item] {
        throw GitbayError(kind: .usage, message: "not faked: \(command.argv)")
    }

    func write(_ command: ControlCommand) async throws(ForgeFailure) {
        writes.withLock { $0.append(command.argv) }
    }

    /// The issues written to, in order, once each.
    var written: [Int] {
        var numbers: [Int] = []
        for argv in writes.withLock({ $0 }) {
            guard let number = Int(argv[3]), !numbers.contains(number) else { continue }
            numbers.append(number)
        }
        return numbers
    }
}

/// A re-check that sends nothing for an entry frees its `--max-actions` slots, and the entries the
/// cap held take them, in plan order and whole, in the same run.
@Suite(.timeLimit(.minutes(1))) struct ApplierSlotTests {
    /// Four idle issues under a cap of two entries' commands: 1 and 2 are taken, 3 and 4 held.
    private func cappedPlan() throws -> (Plan, [GitbayKit.Issue]) {
        let state = try forge(idle: 4)
        let plan = Evaluator(registry: registry, options: EvaluationOptions(maxActions: 4)).plan(
            rules: try rules(markStale), state: state, source: "t")
        #expect(plan.entries.filter(\.hasPendingActions).map(\.item.number) == [1, 2])
        let issues = (1...4).map { number in
            GitbayKit.Issue(
                number: number, title: "Old \(number)", state: .open, author: "alice",
                createdAt: now - 200 * 86_400, updatedAt: now - 90 * 86_400)
        }
        return (plan, issues)
    }

    @Test func anEntryTheReCheckSkipsGivesItsSlotsToTheNextHeldEntry() async throws {
        let (plan, original) = try cappedPlan()
        var issues = original
        // Someone closed issue 1 since the plan: its re-check skips it, and 3 takes its two commands.
        issues[0].state = .closed
        let forge = IssueForge(issues)
        let report = await Applier(registry: registry).apply(
            plan, reader: forge, writer: forge, journal: nil, now: { now })
        #expect(forge.written == [2, 3])
        #expect(report.count(.applied) == 4)
        #expect(report.count(.skipped) == 2)
        #expect(report.count(.held) == 2)
    }

    @Test func anEntryAlreadyDoneGivesItsSlotsAwayToo() async throws {
        var (plan, issues) = try cappedPlan()
        // Issues 1 and 2 were labelled and told already (the run before did it): both are done on
        // the fresh read, and 3 and 4 take their slots.
        for index in 0..<2 {
            issues[index].labels = ["stale"]
            let marker = Evaluator.marker(rule: "mark-stale", item: "krz/app#\(index + 1)")
            issues[index].comments = [Comment(author: "triage-bot", body: "Idle.\n\(marker)", createdAt: now - 60)]
        }
        for index in plan.entries.indices where plan.entries[index].item.number <= 2 {
            plan.entries[index].precondition = .all([])
        }
        let forge = IssueForge(issues)
        let report = await Applier(registry: registry).apply(
            plan, reader: forge, writer: forge, journal: nil, now: { now })
        #expect(forge.written == [3, 4])
        #expect(report.count(.held) == 0)
    }
}
