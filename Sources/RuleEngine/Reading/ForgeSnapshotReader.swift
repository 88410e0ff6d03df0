import Foundation
import GitbayKit

/// Reads everything a forge-state file records about the repositories of a scope, for
/// `gitbay-bot snapshot`: unlike ``ReadPlanner`` it reads whatever any rule could consult, not what
/// given rules need, so the snapshot answers every rule offline as the server would have.
///
/// Per repository: `repo show` (default branch), the repository facts the plugins declare
/// (``ReadNeedDefinition/snapshot``: `repo refs`, `repo deps status`) and `label list`; then each
/// declared kind records its items (``ItemKindReading/snapshot(_:scope:allStates:into:)``: for the
/// built-in ones, one `issue list --q` and one `mr list --q` with `issue show` / `mr show`
/// for every item, and the newest page of `build list`).
public struct ForgeSnapshotReader: Sendable {
    /// The repositories to record: `repo:` and `owner:` terms, as in a rule's scope.
    public var scope: RuleScope
    /// Whether closed issues and merged or closed merge requests are recorded too (open ones always are).
    public var allStates: Bool
    /// The kinds to record, with how each reads its items.
    public var registry: PluginRegistry

    public init(scope: RuleScope, allStates: Bool = false, registry: PluginRegistry) {
        self.scope = scope
        self.allStates = allStates
        self.registry = registry
    }

    /// Reads the forge through `reader`, stamping the state with `now` (the server does not say its time).
    public func read(reader: any ForgeReader, now: Date) async throws -> ForgeSnapshot {
        var report = ReadPlanner.Report()
        let me = try await reader.send(WhoAmICommand()).username
        report.steps.append(Self.step("identity: whoami", requests: 1))
        var context = ReadContext(registry: registry, reader: reader)
        let paths = try await context.repositories(in: scope)

        let facts = registry.needDefinitions.compactMap(\.snapshot)
        var labels: [RepositoryPath: [IssueLabel]] = [:]
        for path in paths {
            let repository = try await reader.send(RepoShowCommand(repository: path))
            var state = RepositoryState(
                path: path, defaultBranch: repository.defaultBranch, known: Set(registry.needs))
            for fact in facts {
                try await fact.read(path, reader, &state)
            }
            context.repositories[path] = state
            labels[path] = try await reader.send(LabelListCommand(repository: path))
        }
        let commands = ["repo show"] + facts.map(\.command) + ["label list"]
        context.note("repositories: \(commands.joined(separator: ", "))", requests: paths.count * commands.count)
        for kind in registry.kinds {
            try await registry.reading(of: kind)?.snapshot(
                paths, scope: scope, allStates: allStates, into: &context)
        }
        // Each repository's own rules file, so an offline plan takes its rules as a run would.
        try await context.readRepositoryRuleFiles(in: paths, registry: registry)
        // Who did what, as far back as a first run reads it: offline plans weigh it as live ones do.
        let inScope = Set(paths)
        let feed = try await FeedRead.read(after: nil, reader: reader, pages: ActivityHistory.firstReadPages)
        context.note("activity: feed", requests: feed.requests)
        report.steps += context.report.steps
        var state = ForgeState(now: now, me: me, repositories: paths.compactMap { context.repositories[$0] })
        ActivityHistory.carry(
            feed.events.filter { inScope.contains($0.repo) && $0.number != nil }, into: &state, registry: registry)
        var snapshot = ForgeSnapshot(state: state, registry: registry, labels: labels)
        snapshot.report = report
        return snapshot
    }

    private static func step(_ what: String, requests: Int) -> String {
        "\(what) (\(requests) request\(requests == 1 ? "" : "s"))"
    }
}
