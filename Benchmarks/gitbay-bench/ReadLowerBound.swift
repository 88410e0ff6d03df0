import BuildsPlugin
import BuiltinPlugins
import GitbayKit
import IssuesPlugin
import MergeRequestsPlugin
import MilestonesPlugin
import RuleEngine

/// The fewest read requests that answer a rule set on a forge, computed offline from the whole
/// forge, as the yardstick of `gitbay-bench reads` (its definition is in docs/performance.md).
///
/// Each part is a read with no cheaper form: the narrowest listing of each item kind the rules'
/// server-side filters allow, one `label:` query per label the rules name, the per-repository
/// facts a rule's fields need, and one `show` per item that is still undecided or matching once
/// every cheap field is known. Requests are counted in 200-row pages, an empty answer costing one.
struct ReadLowerBound: Sendable {
    /// One read and the requests it costs at best.
    struct Part: Sendable, Hashable {
        var what: String
        var requests: Int
    }

    var parts: [Part] = []

    var total: Int { parts.reduce(0) { $0 + $1.requests } }

    /// Archived repositories (`repo list` marks them) count only for the issue query, which spans
    /// repositories and so returns their issues too: nothing in them can be changed, so a reader
    /// skips them for the per-repository listings and for details.
    init(rules: [Rule], state: ForgeState, registry: PluginRegistry) {
        let perRepositoryState = ForgeState(
            now: state.now, me: state.me, repositories: state.repositories.filter { !$0.archived })
        parts.append(Part(what: "identity (whoami, for @me and the bot's markers)", requests: 1))
        let byKind = Dictionary(grouping: rules, by: \.kind)
        let perRepository = [ItemKind.mergeRequests, .builds, .milestones].compactMap { byKind[$0] }.flatMap { $0 }
        if perRepository.contains(where: { !Self.namesExactRepositories($0.scope) }) {
            let visible = state.repositories.count
            parts.append(Part(what: "repository discovery (repo list)", requests: Self.pages(visible)))
        }
        if let issueRules = byKind[.issues] {
            addIssues(issueRules, state: state, registry: registry)
        }
        if let mergeRequestRules = byKind[.mergeRequests] {
            addMergeRequests(mergeRequestRules, state: perRepositoryState, registry: registry)
        }
        if let buildRules = byKind[.builds] {
            addBuilds(buildRules, state: perRepositoryState, listedOpenMergeRequests: byKind[.mergeRequests] ?? [])
        }
        if let milestoneRules = byKind[.milestones] {
            // `milestone list` is per repository and not paged: one request each, whatever it holds.
            let repositories = perRepositoryState.repositories.filter { repository in
                milestoneRules.contains { $0.scope.contains(repository.path) }
            }
            parts.append(Part(what: "milestones: milestone list per repository", requests: repositories.count))
        }
        addDetails(
            rules.filter { $0.kind != .builds && $0.kind != .milestones }, state: perRepositoryState, registry: registry
        )
    }

    /// Requests to page through `rows` rows, 200 a page; asking costs one even when nothing comes back.
    static func pages(_ rows: Int) -> Int {
        max(1, (rows + 199) / 200)
    }

    private static func namesExactRepositories(_ scope: RuleScope) -> Bool {
        scope.terms.allSatisfy { term in
            if case .repository(let pattern) = term { return !pattern.contains("*") }
            return false
        }
    }

    /// The values every rule of the kind pins `field` to, which a listing can filter on; `nil` when one does not.
    private static func selection(_ rules: [Rule], field: String) -> Set<String>? {
        var union = Set<String>()
        for rule in rules {
            guard let values = rule.condition.requiredValues(of: field) else { return nil }
            union.formUnion(values)
        }
        return union
    }

    /// The items of a kind in the rules' scope that the server-side filter on `field` lets through.
    private static func selected(
        _ kind: ItemKind, rules: [Rule], field: String, in repository: RepositoryState, state: ForgeState,
        registry: PluginRegistry
    ) -> [Item] {
        guard rules.contains(where: { $0.scope.contains(repository.path) }) else { return [] }
        let values = selection(rules, field: field)
        return BuiltinPlugins.registry.items(of: kind, in: repository).filter { item in
            guard let values else { return true }
            let context = ItemContext(
                item: item, repository: repository, now: state.now, me: state.me, registry: registry)
            guard case .text(let text) = registry.field(field, for: kind)?.value(context) else { return true }
            return values.contains(text)
        }
    }

    private mutating func addIssues(_ rules: [Rule], state: ForgeState, registry: PluginRegistry) {
        var selectedIssues: [(RepositoryState, Item)] = []
        for repository in state.repositories {
            for item in Self.selected(
                .issues, rules: rules, field: "state", in: repository, state: state, registry: registry)
            {
                selectedIssues.append((repository, item))
            }
        }
        parts.append(Part(what: "issues: one query across repositories", requests: Self.pages(selectedIssues.count)))
        var labels = Set<String>()
        for rule in rules {
            labels.formUnion(rule.condition.namedValues(of: "labels"))
            for action in rule.actions where action.name == "add-label" || action.name == "remove-label" {
                if case .names(let names) = action.argument { labels.formUnion(names) }
            }
        }
        for label in labels.sorted() {
            let carrying = selectedIssues.filter { _, item in
                (item.record as? IssueRecord)?.issue.labels.contains(label) ?? false
            }
            parts.append(Part(what: "issue label \(label): one label: query", requests: Self.pages(carrying.count)))
        }
        let needs = rules.reduce(into: Set<ReadNeed>()) {
            $0.formUnion($1.condition.needs(registry: registry, kind: .issues))
        }
        if needs.contains(.dependencies) {
            let repositories = Set(selectedIssues.map { $0.0.path })
            parts.append(Part(what: "dependency state: repo deps status per repository", requests: repositories.count))
        }
    }

    private mutating func addMergeRequests(_ rules: [Rule], state: ForgeState, registry: PluginRegistry) {
        var requests = 0
        var rows = 0
        for repository in state.repositories where rules.contains(where: { $0.scope.contains(repository.path) }) {
            let selected = Self.selected(
                .mergeRequests, rules: rules, field: "state", in: repository, state: state, registry: registry)
            requests += Self.pages(selected.count)
            rows += selected.count
        }
        parts.append(Part(what: "merge requests: mr list per repository", requests: requests))
        let needs = rules.reduce(into: Set<ReadNeed>()) {
            $0.formUnion($1.condition.needs(registry: registry, kind: .mergeRequests))
        }
        if needs.contains(.activity) {
            parts.append(Part(what: "merge request activity: one query", requests: Self.pages(rows)))
        }
    }

    /// Per repository: `repo show` (the default branch), `repo refs`, the open merge requests
    /// unless a merge-request listing already gave them, and the builds `superseded` compares:
    /// every build from the oldest pending or running one up, in one newest-first listing.
    private mutating func addBuilds(_ rules: [Rule], state: ForgeState, listedOpenMergeRequests: [Rule]) {
        let statuses = Self.selection(rules, field: "status")
        let activeOnly = statuses.map { !$0.isEmpty && $0.isSubset(of: ["pending", "running"]) } ?? false
        var (facts, openLists, buildPages) = (0, 0, 0)
        for repository in state.repositories where rules.contains(where: { $0.scope.contains(repository.path) }) {
            facts += 2
            if !listedOpenMergeRequests.contains(where: { $0.scope.contains(repository.path) }) {
                openLists += Self.pages(repository.mergeRequests.filter { $0.mergeRequest.state == .open }.count)
            }
            guard activeOnly, let statuses else {
                buildPages += 1
                continue
            }
            let oldest = repository.builds.filter { statuses.contains($0.status.rawValue) }.map(\.number).min()
            buildPages += Self.pages(
                oldest.map { oldest in repository.builds.filter { $0.number >= oldest }.count } ?? 0)
        }
        parts.append(Part(what: "builds: repo show + repo refs per repository", requests: facts))
        if openLists > 0 {
            parts.append(Part(what: "builds: open merge requests per repository", requests: openLists))
        }
        parts.append(Part(what: "builds: newest-first listing down to the oldest active build", requests: buildPages))
    }

    /// One `show` per issue or merge request that some rule still cannot decide, or would act on
    /// with an action that needs the detail, once every field cheaper than `show` is known.
    private mutating func addDetails(_ rules: [Rule], state: ForgeState, registry: PluginRegistry) {
        var wanted: [ItemKind: Set<String>] = [:]
        let cheap = Set(registry.needs).subtracting([.detail, .freshDetail])
        for rule in rules {
            let field = "state"
            let values = rule.condition.requiredValues(of: field)
            let actionNeeds = rule.actions.reduce(into: Set<ReadNeed>()) { needs, action in
                needs.formUnion(registry.action(action.name, for: rule.kind)?.needs ?? [])
            }
            for var repository in state.repositories where rule.scope.contains(repository.path) {
                repository.known.remove(.detail)
                for item in BuiltinPlugins.registry.items(of: rule.kind, in: repository) {
                    let shallow: Item
                    if var record = item.record as? IssueRecord {
                        record.known = cheap
                        shallow = .issue(record)
                    } else if var record = item.record as? MergeRequestRecord {
                        record.known = cheap
                        shallow = .mergeRequest(record)
                    } else {
                        continue
                    }
                    let context = ItemContext(
                        item: shallow, repository: repository, now: state.now, me: state.me, registry: registry)
                    if let values, case .text(let text) = registry.field(field, for: rule.kind)?.value(context),
                        !values.contains(text)
                    {
                        continue
                    }
                    var results: [ConditionResult] = []
                    let verdict = rule.condition.evaluate(context, registry: registry, results: &results)
                    guard verdict != false, verdict == nil || !context.knows(actionNeeds) else { continue }
                    wanted[rule.kind, default: []].insert(
                        BuiltinPlugins.registry.reference(to: item, in: repository.path))
                }
            }
        }
        for kind in [ItemKind.issues, .mergeRequests] where !(wanted[kind]?.isEmpty ?? true) {
            let command = kind == .issues ? "issue show" : "mr show"
            parts.append(
                Part(
                    what: "\(kind.rawValue) detail: \(command) per undecided or matching item",
                    requests: wanted[kind]!.count))
        }
    }
}
