import Foundation
import GitbayKit

/// Reads the forge state the rules need, with as few requests as it can: one listing per item
/// kind and scope, filters pushed to the server where every rule allows it, label membership from
/// `label:` queries, and per-item detail only for items that still match once everything cheaper
/// is known.
///
/// The rules shape the reads; evaluation then runs on the resulting ``ForgeState`` exactly as it
/// does on a forge-state file, so online and offline plans agree.
public struct ReadPlanner: Sendable {
    public let registry: PluginRegistry

    public init(registry: PluginRegistry) {
        self.registry = registry
    }

    /// The requests a listing of `rows` rows took: full pages of 200, and at least one.
    static func pages(_ rows: Int) -> Int {
        max(1, (rows + Page<QueryItem>.maximumLimit - 1) / Page<QueryItem>.maximumLimit)
    }

    /// What a run read and why, for `--verbose`.
    public struct Report: Sendable, Hashable {
        /// One line per kind of read: what, how many requests.
        public var steps: [String] = []
    }

    public func read(rules: [Rule], reader: any ForgeReader, now: Date) async throws -> (ForgeState, Report) {
        var session = ReadSession(registry: registry, reader: reader)
        let me = try await reader.send(WhoAmICommand()).username
        session.note("identity: whoami", requests: 1)
        let byKind = Dictionary(grouping: rules, by: \.kind)
        if let issueRules = byKind[.issues] {
            try await session.readIssues(issueRules)
        }
        if let mergeRequestRules = byKind[.mergeRequests] {
            try await session.readMergeRequests(mergeRequestRules)
        }
        if let buildRules = byKind[.builds] {
            try await session.readBuilds(buildRules)
        }
        try await session.readDetails(rules: rules, now: now, me: me)
        return (ForgeState(now: now, me: me, repositories: Array(session.repositories.values)), session.report)
    }

    /// Reads what the rules need for one repository, and everything about one item in it, for
    /// `explain`: every condition of every rule then has a value to show.
    public func read(rules: [Rule], item: ItemReference, reader: any ForgeReader, now: Date) async throws -> ForgeState
    {
        let scoped = rules.filter { $0.kind == item.kind }.map { rule in
            var rule = rule
            rule.scope = RuleScope(terms: [.repository(item.repository.description)])
            return rule
        }
        var session = ReadSession(registry: registry, reader: reader)
        let me = try await reader.send(WhoAmICommand()).username
        switch item.kind {
        case .issues: try await session.readIssues(scoped)
        case .mergeRequests: try await session.readMergeRequests(scoped)
        case .builds: try await session.readBuilds(scoped)
        }
        try await session.readDetails(rules: scoped, now: now, me: me)
        switch item.kind {
        case .issues: try await session.readIssueDetail(item.repository, item.number)
        case .mergeRequests: try await session.readMergeRequestDetail(item.repository, item.number)
        case .builds: break
        }
        return ForgeState(now: now, me: me, repositories: Array(session.repositories.values))
    }
}

/// The mutable work of one ``ReadPlanner/read(rules:reader:now:)`` call, also used by `apply` to
/// re-read a repository's builds.
struct ReadSession {
    let registry: PluginRegistry
    let reader: any ForgeReader
    var repositories: [RepositoryPath: RepositoryState] = [:]
    var report = ReadPlanner.Report()
    private var listedRepositories: [RepositoryPath]?
    /// Archived repositories the listing showed: they refuse every write, so no rule acts on them.
    private(set) var archivedRepositories: Set<RepositoryPath> = []

    init(registry: PluginRegistry, reader: any ForgeReader) {
        self.registry = registry
        self.reader = reader
    }

    mutating func note(_ step: String, requests: Int) {
        report.steps.append("\(step) (\(requests) request\(requests == 1 ? "" : "s"))")
    }

    /// The union of the rules' scopes, as query terms.
    private func scope(of rules: [Rule]) -> RuleScope {
        var terms: [RuleScope.Term] = []
        for rule in rules {
            for term in rule.scope.terms where !terms.contains(term) { terms.append(term) }
        }
        return RuleScope(terms: terms)
    }

    /// The single value every rule requires of `field`, for server-side filtering; `nil` when the
    /// rules differ or one does not pin it.
    private func commonRequirement(_ rules: [Rule], field: String) -> Set<String>? {
        var union = Set<String>()
        for rule in rules {
            guard let values = rule.condition.requiredValues(of: field) else { return nil }
            union.formUnion(values)
        }
        return union
    }

    /// The values of `kind`'s selection field (``PluginRegistry/selectionField(for:)``) that every
    /// rule requires, for the server to filter by; `nil` when they differ or the kind has none.
    private func selected(_ rules: [Rule], kind: ItemKind) -> Set<String>? {
        registry.selectionField(for: kind).flatMap { commonRequirement(rules, field: $0.name) }
    }

    mutating func repository(_ path: RepositoryPath) -> RepositoryState {
        repositories[path] ?? RepositoryState(path: path)
    }

    /// The repositories a scope names: exact `repo:` terms as written, everything else by listing
    /// the repositories the account can reach (once per run).
    mutating func repositories(in scope: RuleScope) async throws -> [RepositoryPath] {
        var exact: [RepositoryPath] = []
        var needsListing = false
        for term in scope.terms {
            if case .repository(let pattern) = term, !pattern.contains("*"), let path = try? RepositoryPath(pattern) {
                exact.append(path)
            } else {
                needsListing = true
            }
        }
        if needsListing, listedRepositories == nil {
            let rows = try await reader.all(try RepoListCommand())
            listedRepositories = rows.filter { !$0.archived }.map(\.path)
            archivedRepositories = Set(rows.filter(\.archived).map(\.path))
            note("repositories: repo list", requests: max(1, (rows.count + 199) / 200))
        }
        let listed = (listedRepositories ?? []).filter { scope.contains($0) }
        return Array(Set(exact + listed)).sorted()
    }

    /// The fields of `kind` whose value is the item's label set (declared with type ``FieldType/labelSet``).
    private func labelFields(of kind: ItemKind) -> [String] {
        registry.fields(for: kind).filter { $0.type == .labelSet }.map(\.name)
    }

    /// The label names rules of a kind test or change, so membership can be learnt by query.
    ///
    /// Found by what plugins declare, not by name: every label-set field a condition names, and
    /// the argument of every action that takes labels. An action missed here would be decided on
    /// a label set that lacks its labels.
    private func namedLabels(_ rules: [Rule]) -> Set<String> {
        var names = Set<String>()
        for rule in rules {
            for field in labelFields(of: rule.kind) {
                names.formUnion(rule.condition.namedValues(of: field))
            }
            for action in rule.actions where registry.action(action.name, for: rule.kind)?.argument == .labels {
                if case .names(let labels) = action.argument { names.formUnion(labels) }
            }
        }
        return names
    }

    /// Whether a template prints a whole label set, which label queries cannot give.
    private func printsLabels(_ rules: [Rule]) -> Bool {
        rules.contains { rule in
            let fields = Set(labelFields(of: rule.kind))
            return rule.actions.contains { action in
                if case .template(let template) = action.argument {
                    return !fields.isDisjoint(with: template.fieldNames)
                }
                return false
            }
        }
    }

    private static func quoted(_ label: String) -> String {
        label.contains(" ") ? "\"\(label)\"" : label
    }

    // MARK: Issues

    mutating func readIssues(_ rules: [Rule]) async throws {
        let scope = scope(of: rules)
        var query = "\(scope) is:issue"
        if let states = selected(rules, kind: .issues), states.count == 1, let state = states.first {
            query += " is:\(state)"
        }
        let rows = try await reader.all(try IssueQueryCommand(query: query))
        note("issues: issue list --q \"\(query)\"", requests: pages(rows.count))
        for row in rows {
            var repository = repository(row.repo)
            let issue = Issue(
                number: row.number, title: row.title, state: row.issueState, author: row.author,
                milestone: row.milestone, createdAt: row.createdAt, updatedAt: row.updatedAt)
            repository.issues.append(IssueRecord(issue: issue, known: [.activity]))
            repositories[row.repo] = repository
        }
        // The query spans archived repositories too; learn which they are (one listing, shared
        // with the other kinds) so that evaluation leaves them alone.
        if scope.terms.contains(where: { term in
            if case .repository(let pattern) = term { return pattern.contains("*") }
            return true
        }) {
            _ = try await repositories(in: scope)
            for path in archivedRepositories where repositories[path] != nil {
                repositories[path]?.archived = true
            }
        }
        let needs = rules.reduce(into: Set<ReadNeed>()) {
            $0.formUnion($1.condition.needs(registry: registry, kind: .issues))
        }
        let labels = namedLabels(rules)
        if !labels.isEmpty, !printsLabels(rules) {
            var requests = 0
            for label in labels.sorted() {
                let labelled = try await reader.all(
                    try IssueQueryCommand(query: "\(query) label:\(Self.quoted(label))"))
                requests += pages(labelled.count)
                for row in labelled {
                    guard var repository = repositories[row.repo],
                        let index = repository.issues.firstIndex(where: { $0.issue.number == row.number })
                    else { continue }
                    repository.issues[index].issue.labels.append(label)
                    repositories[row.repo] = repository
                }
            }
            for (path, var repository) in repositories {
                for index in repository.issues.indices {
                    repository.issues[index].issue.labels.sort()
                    repository.issues[index].known.insert(.labels)
                }
                repositories[path] = repository
            }
            note("issue labels: \(labels.count) label: queries", requests: requests)
        }
        if needs.contains(.dependencies) {
            let paths = repositories.keys.filter { path in !(repositories[path]?.issues.isEmpty ?? true) }.sorted()
            for path in paths {
                let status = try await reader.send(RepoDepsStatusCommand(repository: path))
                repositories[path]?.dependencies = status
                repositories[path]?.known.insert(.dependencies)
            }
            note("dependency tracking issues: repo deps status", requests: paths.count)
        }
    }

    private func pages(_ rows: Int) -> Int {
        ReadPlanner.pages(rows)
    }

    // MARK: Merge requests

    mutating func readMergeRequests(_ rules: [Rule]) async throws {
        let scope = scope(of: rules)
        let openOnly = selected(rules, kind: .mergeRequests) == ["open"]
        let paths = try await repositories(in: scope)
        var requests = 0
        for path in paths {
            let rows = try await reader.all(
                try MergeRequestListCommand(repository: path, state: openOnly ? .open : .all))
            requests += pages(rows.count)
            var repository = repository(path)
            repository.mergeRequests = rows.map { MergeRequestRecord(mergeRequest: MergeRequest(row: $0), known: []) }
            // A stack's parent is judged from the server's own retarget note, written only on merge,
            // so the open ones listed answer for all: a parent not listed open has merged.
            repository.known.formUnion([.openMergeRequests, .allMergeRequests])
            repositories[path] = repository
        }
        note("merge requests: mr list --state \(openOnly ? "open" : "all") per repository", requests: requests)
        let needs = rules.reduce(into: Set<ReadNeed>()) {
            $0.formUnion($1.condition.needs(registry: registry, kind: .mergeRequests))
        }
        if needs.contains(.activity) {
            var query = "\(scope) is:mr"
            if openOnly { query += " is:open" }
            let rows = try await reader.all(try MergeRequestQueryCommand(query: query))
            note("merge request activity: mr list --q \"\(query)\"", requests: pages(rows.count))
            for row in rows {
                guard
                    let index = repositories[row.repo]?.mergeRequests.firstIndex(where: {
                        $0.mergeRequest.number == row.number
                    })
                else { continue }
                repositories[row.repo]?.mergeRequests[index].mergeRequest.updatedAt = row.updatedAt
                repositories[row.repo]?.mergeRequests[index].known.insert(.activity)
            }
        }
    }

    // MARK: Builds

    mutating func readBuilds(_ rules: [Rule]) async throws {
        let scope = scope(of: rules)
        let statuses = selected(rules, kind: .builds)
        let activeOnly = statuses.map { !$0.isEmpty && $0.isSubset(of: ["pending", "running"]) } ?? false
        let paths = try await repositories(in: scope)
        var requests = 0
        for path in paths {
            requests += try await readBuildRepository(path, activeOnly: activeOnly, statuses: statuses ?? [])
        }
        note(
            "builds: repo show, repo refs, open merge requests and "
                + (activeOnly ? "pending/running builds with the newer ones above them" : "the newest 200 builds")
                + " per repository", requests: requests)
    }

    /// Reads what build rules consult in one repository: its default branch, branch and tag tips,
    /// open merge requests and builds; returns the requests spent.
    mutating func readBuildRepository(
        _ path: RepositoryPath, activeOnly: Bool, statuses: Set<String>
    ) async throws
        -> Int
    {
        var requests = 2
        var repository = repository(path)
        repository.defaultBranch = try await reader.send(RepoShowCommand(repository: path)).defaultBranch
        repository.refs = try await reader.send(RepoRefsCommand(repository: path))
        if !repository.known.contains(.openMergeRequests) {
            let open = try await reader.all(try MergeRequestListCommand(repository: path, state: .open))
            requests += pages(open.count)
            repository.mergeRequests += open.map { MergeRequestRecord(mergeRequest: MergeRequest(row: $0), known: []) }
            // A stack's parent is judged from the server's own retarget note, written only on merge,
            // so the open ones listed answer for all: a parent not listed open has merged.
            repository.known.formUnion([.openMergeRequests, .allMergeRequests])
        }
        repository.known.insert(.refs)
        let (builds, used) = try await builds(of: path, activeOnly: activeOnly, statuses: statuses)
        repository.builds = builds
        repositories[path] = repository
        return requests + used
    }

    /// The builds the rules can judge: every pending or running one and every newer build (which
    /// is what `superseded` compares with), or, without a status filter, the newest page.
    private func builds(
        of path: RepositoryPath, activeOnly: Bool, statuses: Set<String>
    ) async throws -> (
        [Build], Int
    ) {
        guard activeOnly else {
            return (try await reader.send(try BuildListCommand(repository: path)).items, 1)
        }
        var requests = 0
        var active: [Build] = []
        for status in statuses.sorted() {
            let rows = try await reader.all(
                try BuildListCommand(repository: path, status: BuildStatus(rawValue: status)))
            requests += pages(rows.count)
            active += rows
        }
        guard let oldest = active.map(\.number).min() else { return ([], requests) }
        var newer: [Build] = []
        var command = try BuildListCommand(repository: path)
        while true {
            let page = try await reader.send(command)
            requests += 1
            newer += page.items.filter { $0.number >= oldest }
            guard let next = page.next, let last = page.items.last, last.number > oldest else { break }
            command.cursor = next
        }
        var byNumber: [Int: Build] = [:]
        for build in active + newer { byNumber[build.number] = build }
        return (byNumber.values.sorted { $0.number > $1.number }, requests)
    }

    // MARK: Details

    /// Fetches `issue show` / `mr show` for every item some rule may still act on: its conditions
    /// hold or are undecided, and it lacks what a condition or an action needs.
    mutating func readDetails(rules: [Rule], now: Date, me: String) async throws {
        var wanted: [RepositoryPath: Set<Int>] = [:]
        var wantedMergeRequests: [RepositoryPath: Set<Int>] = [:]
        for rule in rules where rule.kind != .builds {
            let condition = CompiledCondition(rule.condition, kind: rule.kind, registry: registry)
            let actionNeeds = rule.actions.reduce(into: Set<ReadNeed>()) { needs, action in
                needs.formUnion(registry.action(action.name, for: rule.kind)?.needs ?? [])
            }
            for (path, repository) in repositories where rule.scope.contains(path) && !repository.archived {
                for item in Evaluator.items(of: rule.kind, in: repository) {
                    guard !item.known.contains(.detail) else { continue }
                    let context = ItemContext(item: item, repository: repository, now: now, me: me)
                    let verdict = condition.decide(context)
                    guard verdict != false else { continue }
                    guard verdict == nil || !context.knows(actionNeeds) else { continue }
                    if rule.kind == .issues {
                        wanted[path, default: []].insert(item.number)
                    } else {
                        wantedMergeRequests[path, default: []].insert(item.number)
                    }
                }
            }
        }
        var requests = 0
        for (path, numbers) in wanted.sorted(by: { $0.key < $1.key }) {
            for number in numbers.sorted() {
                try await readIssueDetail(path, number)
                requests += 1
            }
        }
        if requests > 0 { note("issue details: issue show for undecided or matching issues", requests: requests) }
        requests = 0
        for (path, numbers) in wantedMergeRequests.sorted(by: { $0.key < $1.key }) {
            for number in numbers.sorted() {
                try await readMergeRequestDetail(path, number)
                requests += 1
            }
        }
        if requests > 0 {
            note("merge request details: mr show for undecided or matching merge requests", requests: requests)
        }
    }

    /// Replaces a listed issue with its `issue show`, keeping the `updated_at` a query gave.
    mutating func readIssueDetail(_ path: RepositoryPath, _ number: Int) async throws {
        var issue = try await reader.send(try IssueShowCommand(repository: path, number: number))
        guard let index = repositories[path]?.issues.firstIndex(where: { $0.issue.number == number }) else { return }
        issue.updatedAt = issue.updatedAt ?? repositories[path]?.issues[index].issue.updatedAt
        repositories[path]?.issues[index].issue = issue
        repositories[path]?.issues[index].known.formUnion([.detail, .labels])
    }

    /// Replaces a listed merge request with its `mr show`, keeping the `updated_at` a query gave.
    mutating func readMergeRequestDetail(_ path: RepositoryPath, _ number: Int) async throws {
        var mergeRequest = try await reader.send(try MergeRequestShowCommand(repository: path, number: number))
        guard let index = repositories[path]?.mergeRequests.firstIndex(where: { $0.mergeRequest.number == number })
        else { return }
        mergeRequest.updatedAt =
            mergeRequest.updatedAt ?? repositories[path]?.mergeRequests[index].mergeRequest.updatedAt
        repositories[path]?.mergeRequests[index].mergeRequest = mergeRequest
        repositories[path]?.mergeRequests[index].known.formUnion([.detail, .labels])
    }
}
