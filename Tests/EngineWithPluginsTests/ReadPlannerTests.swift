import BuildsPlugin
import Foundation
import GitbayClient
import GitbayKit
import GitbayPorts
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Synchronization
import Testing

/// Two open issues of krz/app, #1 labelled `docs`, answered to `issue list --q` as gitbay does:
/// a `label:` term keeps the issues that have the label.
private final class LabelledForge: ForgeReader {
    let queries = Mutex<[String]>([])
    let labels: [Int: [String]] = [1: ["docs"], 2: []]

    func send<Command: GitbayCommand>(_ command: Command) async throws -> Command.Response {
        guard command is WhoAmICommand, let me = Identity(username: "triage-bot", keyScope: "full") as? Command.Response
        else { throw GitbayError(kind: .usage, message: "not faked: \(command.argv)") }
        return me
    }

    func all<Command: PagedCommand>(_ command: Command) async throws -> [Command.Item] {
        guard let query = command as? IssueQueryCommand else {
            throw GitbayError(kind: .usage, message: "not faked: \(command.argv)")
        }
        queries.withLock { $0.append(query.query) }
        let app = try RepositoryPath("krz/app")
        let wanted = query.query.split(separator: " ").compactMap { term in
            term.hasPrefix("label:") ? String(term.dropFirst("label:".count)) : nil
        }
        let rows = labels.keys.sorted().filter { number in
            wanted.allSatisfy { labels[number, default: []].contains($0) }
        }.map { number in
            QueryItem(
                kind: .issue, repo: app, number: number, title: "issue \(number)", state: "open", author: "alice",
                createdAt: now - 86_400 * 100, updatedAt: now - 86_400 * 90)
        }
        return rows.compactMap { $0 as? Command.Item }
    }
}

/// A label action under a name the engine has never heard of.
private struct TagPlugin: BotPlugin {
    let name = "tag"

    func fields(for kind: ItemKind) -> [FieldDefinition] { [] }

    func actions(for kind: ItemKind) -> [ActionDefinition] {
        guard kind == .issues else { return [] }
        return [
            ActionDefinition(
                "tag", argument: .labels, needs: [.labels], doc: "Adds labels.",
                command: { request, context in
                    ControlCommand(
                        argv: ["issue", "label", "krz/app", "\(context.item.number)", "--add"]
                            + request.argument.names, effect: .write)
                },
                isDone: { request, context in
                    guard let record = context.item.record as? IssueRecord else { return false }
                    return request.argument.names.allSatisfy(record.issue.labels.contains)
                })
        ]
    }
}

private let tagRule = """
    scope: repo:krz/app
    rules:
      - name: tag-docs
        on: issues
        when:
          - state = open
          - labels lacks [stale]
        do:
          - tag: docs
    """

/// What the read planner learns comes from what plugins declare, not from names it knows.
@Suite struct ReadPlannerTests {
    @Test func labelsAnActionTakesAreLearntWhateverTheActionIsCalled() async throws {
        let registry = PluginRegistry(plugins: [IssuesPlugin(), TagPlugin()])
        let rules = RuleSet.load(files: [(path: "tag.yml", bytes: Array(tagRule.utf8))], registry: registry).rules
        let forge = LabelledForge()
        let (state, _) = try await ReadPlanner(registry: registry).read(
            rules, from: forge, at: now, policy: ReadPolicy(.audit))
        #expect(
            Set(forge.queries.withLock { $0 }.filter { $0.contains("label:") }) == [
                "repo:krz/app is:issue is:open label:docs", "repo:krz/app is:issue is:open label:stale",
            ])
        let plan = Evaluator(registry: registry).plan(rules: rules, state: state, source: "t")
        let statuses = plan.entries.map { ($0.item.number, $0.actions.map(\.status)) }
        #expect(statuses.count == 2)
        #expect(statuses.first { $0.0 == 1 }?.1 == [.alreadyDone])
        #expect(statuses.first { $0.0 == 2 }?.1 == [.pending])
    }
}
