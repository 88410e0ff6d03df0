import Foundation
import GitbayTestSupport
import IssuesPlugin
import RuleEngine
import Synchronization
import Testing

@testable import BotCLI
@testable import Watch

/// An entry of `rule` on issue `number` of `krz/app`, with one pending action (or a held one).
private func entry(_ rule: String, _ number: Int, action: String = "add-label", held: Bool = false) -> PlanEntry {
    PlanEntry(
        rule: rule,
        item: PlannedItem(
            repository: "krz/app", kind: .issues, number: number, title: "", reference: "krz/app#\(number)"),
        reasons: [], actions: [PlannedAction(action: action, status: held ? .held : .pending)],
        precondition: .all([]))
}

/// A plan of `entries`, with a summary for each rule they name.
private func plan(_ entries: [PlanEntry]) -> Plan {
    let rules = Set(entries.map(\.rule)).sorted().map {
        Plan.RuleSummary(name: $0, kind: .issues, description: nil, location: "rules.yml:1:3")
    }
    return Plan(
        evaluatedAt: Date(timeIntervalSince1970: 0), me: "triage-bot", source: "test", rules: rules,
        entries: entries, guards: ["--max-actions 50 held 3 actions"])
}

/// Each job's rule, item and action, in the order the queue hands them out.
private func drained(_ queue: inout WriteQueue) -> [String] {
    var order: [String] = []
    while let job = queue.next() {
        order.append("\(job.entry.rule) \(job.entry.item.reference) \(job.entry.actions[0].action)")
        queue.sent(ApplyReport())
    }
    return order
}

/// The order and replacement rules of the watcher's write queue, pure.
@Suite struct WriteQueueTests {
    @Test func eventsPassesJumpTheBacklogAndEachJobIsOneEntryOfItsRule() throws {
        var queue = WriteQueue()
        queue.hand(plan([entry("triage", 1), entry("triage", 2)]), activity: nil, lane: .backlog) { _ in true }
        queue.hand(plan([entry("unmark", 9)]), activity: nil, lane: .prompt) { $0.item.number == 9 }
        #expect(queue.commands == 3)
        let next = queue.next()
        let first = try #require(next)
        #expect(first.plan.entries.map(\.rule) == ["unmark"])
        #expect(first.plan.rules.map(\.name) == ["unmark"], "the applier checks its own rule's schedule only")
        #expect(first.plan.guards.isEmpty, "a job reports no guard of the pass that judged it")
        #expect(queue.next() == nil, "one job at a time")
        queue.sent(ApplyReport())
        #expect(drained(&queue) == ["triage krz/app#1 add-label", "triage krz/app#2 add-label"])
    }

    @Test func aLaterJudgementReplacesTheWaitingOneInPlaceOrDropsIt() {
        var queue = WriteQueue()
        queue.hand(
            plan([entry("triage", 1), entry("triage", 2), entry("triage", 3)]), activity: nil, lane: .backlog
        ) { _ in true }
        // An events pass judged issues 1 and 2 again: 1 now takes another action, 2 none.
        queue.hand(plan([entry("triage", 1, action: "comment")]), activity: nil, lane: .prompt) {
            $0.item.number <= 2
        }
        #expect(drained(&queue) == ["triage krz/app#1 comment", "triage krz/app#3 add-label"])
    }

    @Test func aFullPassKeepsAnEventsJudgementPromptAndHeldEntriesAreNotQueued() {
        var queue = WriteQueue()
        queue.hand(plan([entry("triage", 1)]), activity: nil, lane: .backlog) { _ in true }
        queue.hand(plan([entry("unmark", 5)]), activity: nil, lane: .prompt) { $0.rule == "unmark" }
        // A full pass judges everything again: the same two, and one more held by a guard.
        queue.hand(
            plan([entry("triage", 1), entry("unmark", 5), entry("triage", 7, held: true)]), activity: nil,
            lane: .backlog
        ) { _ in true }
        #expect(drained(&queue) == ["unmark krz/app#5 add-label", "triage krz/app#1 add-label"])
    }

    @Test func aJobPutBackGoesFirstUnlessItsItemWasJudgedWhileItWasSent() {
        var queue = WriteQueue()
        queue.hand(plan([entry("triage", 1), entry("triage", 2)]), activity: nil, lane: .backlog) { _ in true }
        #expect(queue.next() != nil)
        queue.putBack()
        #expect(queue.commands == 2)
        let again = queue.next()
        #expect(again?.entry.item.number == 1)
        // While it is sent, a pass judges issue 1 again and no longer acts on it.
        queue.hand(plan([]), activity: nil, lane: .prompt) { $0.item.number == 1 }
        queue.putBack()
        #expect(drained(&queue) == ["triage krz/app#2 add-label"])
    }

    @Test func whatWasSentIsTakenOnceForThePassLine() {
        var queue = WriteQueue()
        queue.hand(plan([entry("triage", 1)]), activity: nil, lane: .backlog) { _ in true }
        _ = queue.next()
        var report = ApplyReport()
        report.outcomes = [ApplyOutcome(rule: "triage", item: "krz/app#1", action: "add-label", status: .applied)]
        queue.sent(report)
        #expect(queue.takeFinished().map(\.status) == [.applied])
        #expect(queue.takeFinished().isEmpty)
        #expect(queue.commands == 0)
    }
}

/// A failure of the drain's tests: one waiting can mend, or one it cannot.
private struct DrainFailure: Error, Equatable {
    var waitable: Bool
}

/// What a drain under test did: the issues it sent, in order, and the pauses it asked for.
private final class DrainLog: Sendable {
    let state = Mutex<(sent: [Int], pauses: [Int], failed: Bool)>(([], [], false))
}

/// The drain that sends the queue: what it does with a failure its caller calls waitable and with
/// one it does not.
@Suite struct WriteDrainTests {
    /// Sends `entries` through a drain whose `send` fails the first time with `failure`, and answers
    /// the jobs sent, in order, the pauses asked for and the failure that stopped the drain.
    private func drain(
        _ entries: [PlanEntry], failingOnceWith failure: DrainFailure
    ) async -> (sent: [Int], pauses: [Int], stopped: DrainFailure?) {
        let drain = WriteDrain<DrainFailure>()
        let log = DrainLog()
        drain.hand(plan(entries), activity: nil, lane: .backlog) { _ in true }
        let total = entries.count
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await drain.run(
                    send: { job throws(DrainFailure) in
                        let failNow = log.state.withLock { state in
                            defer { state.failed = true }
                            return !state.failed
                        }
                        if failNow { throw failure }
                        log.state.withLock { $0.sent.append(job.entry.item.number) }
                        return ApplyReport()
                    },
                    waitable: { $0.waitable },
                    pause: { failures, _ in
                        log.state.withLock { $0.pauses.append(failures) }
                        return true
                    })
            }
            // The drain runs until cancelled: it is, once every job is sent or it has stopped.
            _ = try? await eventually(within: 20, every: .milliseconds(5)) {
                drain.failure != nil || log.state.withLock { $0.sent.count } == total
            }
            group.cancelAll()
        }
        return log.state.withLock { ($0.sent, $0.pauses, drain.failure) }
    }

    @Test func aWaitableFailurePutsTheJobBackAndSendsItAfterThePause() async {
        let outcome = await drain(
            [entry("triage", 1), entry("triage", 2)], failingOnceWith: DrainFailure(waitable: true))
        #expect(outcome.sent == [1, 2], "the job that failed is sent again first")
        #expect(outcome.pauses == [1])
        #expect(outcome.stopped == nil)
    }

    @Test func anyOtherFailureStopsTheDrainWithNothingMoreSent() async {
        let outcome = await drain(
            [entry("triage", 1), entry("triage", 2)], failingOnceWith: DrainFailure(waitable: false))
        #expect(outcome.sent.isEmpty)
        #expect(outcome.pauses.isEmpty)
        #expect(outcome.stopped == DrainFailure(waitable: false))
    }
}
