import BuildsPlugin
import BuiltinPlugins
import Foundation
import GitbayClient
import GitbayKit
import GitbayPorts
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Synchronization
import Testing

private let landedNote = "retargeted from stack-1 to main: !159 merged"

/// A stacked merge request and its parent behind the reader protocol, the parent listed as
/// `parentState`; every command asked for is recorded.
private final class StackForge: ForgeReader, ForgeWriter {
    let parentState: MergeRequestState
    let asked = Mutex<[[String]]>([])
    let written = Mutex<[[String]]>([])

    init(parentState: MergeRequestState) {
        self.parentState = parentState
    }

    func send<Command: GitbayCommand>(_ command: Command) async throws -> Command.Response {
        asked.withLock { $0.append(command.argv) }
        guard command is MergeRequestShowCommand, let child = child as? Command.Response else {
            throw GitbayError(kind: .usage, message: "not faked: \(command.argv)")
        }
        return child
    }

    func all<Command: PagedCommand>(_ command: Command) async throws -> [Command.Item] {
        asked.withLock { $0.append(command.argv) }
        let parent = MergeRequestRow(
            number: 159, title: "parent", state: parentState, author: "cmc", source: "stack-1", targetRef: "main",
            headSHA: String(repeating: "a", count: 40), createdAt: now - 86_400 * 40)
        guard command is MergeRequestListCommand, let rows = [parent] as? [Command.Item] else {
            throw GitbayError(kind: .usage, message: "not faked: \(command.argv)")
        }
        return rows
    }

    func write(_ command: ControlCommand) async throws(ForgeFailure) {
        written.withLock { $0.append(command.argv) }
    }

    var child: MergeRequest {
        MergeRequest(
            number: 160, title: "child", state: .open, draft: true, author: "cmc", source: "stack-2",
            targetRef: "main", headSHA: String(repeating: "b", count: 40),
            comments: [Comment(author: "system", body: landedNote, createdAt: now - 3_600, kind: .system)],
            createdAt: now - 86_400 * 30)
    }
}

private let readyRule = """
    scope: owner:krz
    rules:
      - name: ready-landed
        on: merge_requests
        when:
          - draft
          - stack.landed
        do:
          - ready
          - comment: Ready now that the MR below it landed.
    """

/// A plan whose entry readies !160, made while its parent was not listed (the note trusted).
private func plannedReady(_ forge: StackForge) throws -> Plan {
    let record = MergeRequestRecord(mergeRequest: forge.child, known: Set(BuiltinPlugins.registry.needs))
    var repository = RepositoryState(path: try RepositoryPath("krz/runner"), known: Set(BuiltinPlugins.registry.needs))
    repository.mergeRequests = [record]
    let state = ForgeState(now: now, me: "triage-bot", repositories: [repository])
    return Evaluator(registry: registry).plan(rules: try rules(readyRule), state: state, source: "t")
}

/// What `apply` re-reads before a write: what the entry's conditions consult, and nothing it
/// only pretends to know.
@Suite struct ItemRefresherTests {
    @Test func aStackIsReCheckedAgainstTheOpenMergeRequestsReadAfresh() async throws {
        let forge = StackForge(parentState: .open)
        let plan = try plannedReady(forge)
        #expect(plan.entries.first?.actions.map(\.status) == [.pending, .pending])
        let report = await Applier(registry: registry).apply(
            plan, reader: forge, writer: forge, journal: nil, now: { now })
        #expect(
            forge.asked.withLock { $0 }.contains(["mr", "list", "krz/runner", "--state", "open", "--limit", "200"]))
        #expect(report.outcomes.map(\.status) == [.skipped, .skipped])
        #expect(report.outcomes.first?.detail?.hasPrefix("no longer matches: stack.landed") == true)
        #expect(forge.written.withLock { $0 }.isEmpty)
    }

    @Test func aParentNotListedOpenHasMergedAndTheReadyGoesOut() async throws {
        let forge = StackForge(parentState: .merged)
        let report = await Applier(registry: registry).apply(
            try plannedReady(forge), reader: forge, writer: forge, journal: nil, now: { now })
        #expect(report.outcomes.map(\.status) == [.applied, .applied])
        #expect(forge.written.withLock { $0 }.first == ["mr", "ready", "krz/runner", "160"])
    }
}
