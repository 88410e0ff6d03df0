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
        /// The detail reads (`issue show`, `mr show`) among them.
        public var detailRequests = 0
    }

    /// Reads what `rules` need; with `guards`, details only where they can change what a run with
    /// those guards does (``ReadSession/readDetails(rules:now:me:guards:)``), else every detail a
    /// verdict may depend on (`--read-all`, for audits and for `explain`).
    ///
    /// With `cache` and `guards`, details whose version still matches come from it (unless
    /// `trustCache` is false, `--no-cache`); every detail read afresh is kept in it for the next
    /// run, a full read's too; a cache that cannot be read or written costs requests, never the
    /// run. `me`, when the caller already asked the server (to find its database), saves asking
    /// again. `only` (a `watch` pass) reads the details of those items alone.
    public func read(
        rules: [Rule], reader: any ForgeReader, now: Date, guards: EvaluationOptions? = nil,
        cache: (any ReadCache)? = nil, trustCache: Bool = true, me known: String? = nil, only: WatchTargets? = nil
    ) async throws -> (ForgeState, Report) {
        var session = ReadSession(registry: registry, reader: reader)
        session.only = only
        session.cache = cache
        // A full read is an audit: it trusts no copy, and what it shows of an item (every label,
        // which no version covers) is the server's now. It still refreshes the cache.
        session.trustsCache = cache != nil && trustCache && guards != nil
        let me: String
        if let known {
            me = known
        } else {
            me = try await reader.send(WhoAmICommand()).username
            session.note("identity: whoami", requests: 1)
        }
        var kinds: [ItemKind] = []
        for rule in rules where !kinds.contains(rule.kind) { kinds.append(rule.kind) }
        for kind in registry.kinds(ordering: kinds) {
            try await session.list(rules.filter { $0.kind == kind }, of: kind)
        }
        if session.trustsCache {
            session.restoreCached(rules)
        }
        if let guards {
            try await session.readDetails(rules: rules, now: now, me: me, guards: guards)
        } else {
            try await session.readDetails(rules: rules, now: now, me: me)
        }
        if let cache {
            let entries = session.freshCacheEntries() + session.keptEntries
            do {
                try cache.storeDetails(entries, at: now)
            } catch {
                session.note("read cache: \(entries.count) details could not be kept: \(error)")
            }
        }
        let state = ForgeState(
            now: now, me: me, repositories: Array(session.repositories.values), unread: session.unreadNotes)
        return (state, session.report)
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
        try await session.list(scoped, of: item.kind)
        try await session.readDetails(rules: scoped, now: now, me: me)
        try await registry.definition(of: item.kind)?.readDetail(of: item.number, in: item.repository, into: &session)
        return ForgeState(now: now, me: me, repositories: Array(session.repositories.values))
    }
}

/// The mutable work of one ``ReadPlanner/read(rules:reader:now:)`` call, and of `apply`'s fresh
/// re-reads: what has been read so far, by repository, and the helpers every ``ItemKindDefinition``
/// reads with.
public struct ReadSession: Sendable {
    public let registry: PluginRegistry
    public let reader: any ForgeReader
    /// What is known of each repository read so far.
    public var repositories: [RepositoryPath: RepositoryState] = [:]
    public internal(set) var report = ReadPlanner.Report()
    private var listedRepositories: [RepositoryPath]?
    /// Archived repositories the listing showed: they refuse every write, so no rule acts on them.
    public private(set) var archivedRepositories: Set<RepositoryPath> = []
    /// What the guarded detail reads left unread, one line per rule (``ForgeState/unread``).
    public internal(set) var unreadNotes: [String] = []
    /// The items a `watch` pass is about; details of others are not read.
    public internal(set) var only: WatchTargets?
    /// Where details are kept between runs; `nil` keeps none.
    public internal(set) var cache: (any ReadCache)?
    /// Whether what the cache holds may stand in for a read (not with `--no-cache`, nor in a full read).
    public internal(set) var trustsCache = false
    /// Whether details read are kept in a read cache, so listings read the versions that validate
    /// them (a merge request's activity time) even when no rule needs them.
    public var keepsCache: Bool { cache != nil }
    /// The items whose details were read from the server in this session.
    var freshDetails: [FreshDetail] = []
    /// The cache's entries of each kind, as loaded once for the session.
    var loadedCache: [ItemKind: [String: CachedDetail]] = [:]
    /// Entries plugins asked to keep beyond details (``keep(_:)``).
    var keptEntries: [CachedDetail] = []

    public init(registry: PluginRegistry, reader: any ForgeReader) {
        self.registry = registry
        self.reader = reader
    }

    /// Notes one kind of read and the requests it took, for `--verbose`.
    public mutating func note(_ step: String, requests: Int) {
        note("\(step) (\(requests) request\(requests == 1 ? "" : "s"))")
    }

    /// Notes a line for `--verbose` as it is.
    public mutating func note(_ line: String) {
        report.steps.append(line)
    }

    /// Lists `rules` (all of `kind`) through the kind's reader; a kind no plugin reads lists nothing.
    mutating func list(_ rules: [Rule], of kind: ItemKind) async throws {
        guard !rules.isEmpty, let reader = registry.definition(of: kind) else { return }
        try await reader.list(rules, into: &self)
    }

    /// The union of the rules' scopes, as query terms.
    public func scope(of rules: [Rule]) -> RuleScope {
        RuleScope(union: rules.map(\.scope))
    }

    /// What the conditions of `rules` (all of `kind`) need read beyond the listing.
    public func conditionNeeds(_ rules: [Rule], kind: ItemKind) -> Set<ReadNeed> {
        rules.reduce(into: Set<ReadNeed>()) { $0.formUnion($1.condition.needs(registry: registry, kind: kind)) }
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
    public func selected(_ rules: [Rule], kind: ItemKind) -> Set<String>? {
        registry.selectionField(for: kind).flatMap { commonRequirement(rules, field: $0.name) }
    }

    /// What is known of `path` so far; an empty state when nothing is.
    public func repository(_ path: RepositoryPath) -> RepositoryState {
        repositories[path] ?? RepositoryState(path: path)
    }

    /// The repositories a scope names: exact `repo:` terms as written, everything else by listing
    /// the repositories the account can reach (once per run).
    public mutating func repositories(in scope: RuleScope) async throws -> [RepositoryPath] {
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
            note("repositories: repo list", requests: pages(rows.count))
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
    public func namedLabels(_ rules: [Rule]) -> Set<String> {
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
    public func printsLabels(_ rules: [Rule]) -> Bool {
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

    /// A label as a `label:` query term: quoted when it holds a space.
    public static func quoted(_ label: String) -> String {
        label.contains(" ") ? "\"\(label)\"" : label
    }

    /// The requests a listing of `rows` rows took: full pages of 200, and at least one.
    public func pages(_ rows: Int) -> Int {
        ReadPlanner.pages(rows)
    }

    // MARK: Details

    /// Reads the details (`issue show`, `mr show`) of every item some rule may still act on: its
    /// conditions hold or are undecided, and it lacks what a condition or an action needs.
    mutating func readDetails(rules: [Rule], now: Date, me: String) async throws {
        var wanted: [ItemKind: [RepositoryPath: Set<Int>]] = [:]
        for rule in rules {
            let condition = CompiledCondition(rule.condition, kind: rule.kind, registry: registry)
            let actionNeeds = rule.actions.reduce(into: Set<ReadNeed>()) { needs, action in
                needs.formUnion(registry.action(action.name, for: rule.kind)?.needs ?? [])
            }
            for (path, repository) in repositories where rule.scope.contains(path) && !repository.archived {
                for item in registry.items(of: rule.kind, in: repository) {
                    guard !item.known.contains(.freshDetail) else { continue }
                    if let only, !only.contains(registry.reference(to: item, in: path), kind: rule.kind, in: path) {
                        continue
                    }
                    let context = ItemContext(item: item, repository: repository, now: now, me: me)
                    let verdict = condition.decide(context)
                    guard verdict != false else { continue }
                    guard verdict == nil || !context.knows(actionNeeds) else { continue }
                    wanted[rule.kind, default: [:]][path, default: []].insert(item.number)
                }
            }
        }
        for kind in registry.kinds(ordering: Array(wanted.keys)) {
            guard let reader = registry.definition(of: kind), let paths = wanted[kind] else { continue }
            var requests = 0
            for (path, numbers) in paths.sorted(by: { $0.key < $1.key }) {
                for number in numbers.sorted() {
                    try await readFreshDetail(kind, number: number, in: path)
                    requests += 1
                }
            }
            if requests > 0 { note(reader.detailStep, requests: requests) }
        }
    }

}
