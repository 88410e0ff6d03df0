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
    /// How far back a comment may hold a command (`command_window:`): items commented on before
    /// it are not read for command rules, on a guarded read and a full one alike.
    public var commandWindow: TimeInterval
    /// The accounts besides the bot's whose activity is not a person's (`bots:`), which every
    /// item's judgement weighs.
    public var automation: Set<String>
    /// Who may write where gitbay will not tell the bot (``CommandWriters``).
    public var writers: Set<String>

    public init(
        registry: PluginRegistry, commandWindow: TimeInterval = EvaluationOptions.defaultCommandWindow,
        automation: Set<String> = [], writers: Set<String> = []
    ) {
        self.registry = registry
        self.commandWindow = commandWindow
        self.automation = automation
        self.writers = writers
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

    /// Reads what `rules` need through `reader` at `now`, as `policy` says (``ReadPolicy``).
    ///
    /// Guarded, details are read only where they can change what a run with those guards does
    /// (`ReadSession.readDetails(rules:now:me:guards:)`); an audit reads every detail a verdict may
    /// depend on; a `watch` pass the details of its targets alone; `explain` one item whole. A
    /// trusted cache serves the details whose version still matches; a kept one is given every
    /// detail read afresh, an audit's too; a cache that cannot be read or written costs requests,
    /// never the run. `basis` is what the caller knows already: the account, and who did what to
    /// the items (``ActivityHistory``), which every item's judgement weighs and which tells the
    /// sweep where something changed. With the policy's sweep, the per-repository reads skip the
    /// repositories where the feed and the listings show nothing changed, but for a rolling share
    /// (``RepositorySweep``), when `activity` holds everything since the last run; with its
    /// budget, no per-repository read that no change asks for is sent once that many requests
    /// were: those repositories keep their copies, or wait unread for the next runs, which the
    /// state's notes say (``ForgeState/unread``).
    public func read(
        _ rules: [Rule], from reader: any ForgeReader, at now: Date, policy: ReadPolicy, basis: ReadBasis = ReadBasis()
    ) async throws -> (ForgeState, Report) {
        if case .item(let item) = policy.scope {
            return (
                try await read(rules, item: item, from: reader, at: now, basis: basis, policy: policy.repositoryRules),
                Report()
            )
        }
        var session = ReadSession(registry: registry, reader: reader, readBudget: policy.readBudget)
        session.commandWindow = commandWindow
        session.only = policy.targets
        session.automation = automation
        session.context.cache = policy.keptIn
        // A full read is an audit: it trusts no copy, and what it shows of an item (every label,
        // which no version covers) is the server's now. It still refreshes the cache.
        session.context.trustsCache = policy.trustsCache
        let activity = basis.activity
        if let activity {
            session.sweep.start(
                RepositorySweep(
                    period: policy.sweepPeriod ?? RepositorySweep.defaultPeriod, now: now, events: activity.events,
                    writes: activity.writes),
                skips: policy.sweepSkips && activity.complete)
            if policy.sweepSkips, !activity.complete {
                // Under a read budget every one is due, and the budget's line says what it left.
                session.context.note(
                    "sweep: every repository is \(policy.readBudget == nil ? "read" : "due"), since the feed "
                        + "does not tell everything since the last run")
            }
        }
        let me = try await Self.account(basis, reader: reader)
        if basis.me == nil { session.context.note("identity: whoami", requests: 1) }
        var rules = rules
        var previews: (paths: [RepositoryPath], scope: RuleScope)?
        if let repositoryRules = policy.repositoryRules, repositoryRules.reads {
            var terms: [RuleScope.Term] = []
            for rule in rules { terms += rule.scope.terms.filter { !terms.contains($0) } }
            let scope = RuleScope(terms: terms)
            // An events pass reads the files only where its events may have moved them.
            let paths =
                if let targets = policy.targets { targets.ruleFiles.sorted() } else {
                    try await session.context.repositories(in: scope)
                }
            rules += try await readRepositoryRules(
                in: paths, beside: rules, session: &session, policy: repositoryRules, now: now, me: me)
            previews = repositoryRules.previews && policy.targets == nil ? (paths, scope) : nil
        }
        var kinds: [ItemKind] = []
        for rule in rules where !kinds.contains(rule.kind) { kinds.append(rule.kind) }
        for kind in registry.kinds(ordering: kinds) {
            try await session.list(rules.filter { $0.kind == kind }, of: kind)
        }
        // Taken before any detail is read or restored: what a rule outside its schedule is judged on.
        let listed = rules.contains { $0.schedule?.verdict(at: now).open == false } ? session.listedNeeds() : nil
        if let activity {
            if let note = activity.note { session.context.note(note, requests: activity.requests) }
            session.annotate(with: activity)
            try await session.readCommented(rules: rules, activity: activity, now: now, me: me)
        }
        if policy.trustsCache {
            await session.restoreCached(rules)
        }
        try await session.readWriters(rules: rules, configured: writers)
        try await session.readRepositoryNeeds(rules: rules, now: now, me: me)
        if let guards = policy.guards {
            try await session.readDetails(rules: rules, now: now, me: me, guards: guards)
        } else {
            try await session.readDetails(rules: rules, now: now, me: me)
        }
        // Last, with what the budget leaves: no rule waits on a preview.
        if let previews {
            try await session.context.readRuleProposals(
                in: previews.paths, scope: previews.scope, registry: registry, now: now)
        }
        if let cache = policy.keptIn {
            let entries = session.freshCacheEntries() + session.context.keptEntries
            do {
                try await cache.storeDetails(entries, at: now)
            } catch {
                session.context.note("read cache: \(entries.count) details could not be kept: \(error)")
            }
        }
        if let activity { session.annotate(with: activity) }
        if let line = session.sweep.budgetNote() {
            session.unreadNotes.append(line)
            session.context.note(line)
        }
        var state = ForgeState(
            now: now, me: me, repositories: Array(session.context.repositories.values), unread: session.unreadNotes)
        state.automation = automation
        state.listed = listed
        return (state, session.context.report)
    }

    /// Reads the rules files of `paths` (the repositories the operator's `rules` reach, or the
    /// one `explain` asks about) and answers the rules of those without an error, which the rest
    /// of the read serves too.
    private func readRepositoryRules(
        in paths: [RepositoryPath], beside rules: [Rule], session: inout ReadSession, policy: RepositoryRulesPolicy,
        now: Date, me: String
    ) async throws -> [Rule] {
        try await session.context.readRepositoryRuleFiles(in: paths, registry: registry)
        let state = ForgeState(now: now, me: me, repositories: Array(session.context.repositories.values))
        return await RepositoryRules.load(state, policy: policy, registry: registry, operatorRules: rules).rules
    }

    /// The account `basis` names, else the one `reader`'s token belongs to (`whoami`).
    private static func account(_ basis: ReadBasis, reader: any ForgeReader) async throws -> String {
        if let me = basis.me { return me }
        return try await reader.send(WhoAmICommand()).username
    }

    /// Reads what the rules need for one repository, and everything about one item in it, for
    /// `explain`: every condition of every rule then has a value to show, for an item the rules'
    /// listings leave out too (a closed issue, a merged merge request).
    ///
    /// With `repositoryRules`, the item's repository's own rules file is read first, and its rules
    /// are read for as the operator's are.
    private func read(
        _ rules: [Rule], item: ItemReference, from reader: any ForgeReader, at now: Date, basis: ReadBasis,
        policy repositoryRules: RepositoryRulesPolicy?
    ) async throws -> ForgeState {
        var session = ReadSession(registry: registry, reader: reader)
        session.commandWindow = commandWindow
        session.automation = automation
        let me = try await Self.account(basis, reader: reader)
        var rules = rules
        if let repositoryRules, repositoryRules.reads {
            rules += try await readRepositoryRules(
                in: [item.repository], beside: rules, session: &session, policy: repositoryRules, now: now, me: me)
        }
        let scoped = rules.filter { $0.kind == item.kind }.map { rule in
            var rule = rule
            rule.scope = RuleScope(terms: [.repository(item.repository.description)])
            return rule
        }
        try await session.list(scoped, of: item.kind)
        try await session.readWriters(rules: scoped, configured: writers)
        try await session.readDetails(rules: scoped, now: now, me: me)
        let needs = scoped.reduce(into: Set<ReadNeed>()) { needs, rule in
            needs.formUnion(rule.condition.needs(registry: registry, kind: item.kind))
            needs.formUnion(rule.actionNeeds(registry: registry))
        }
        try await registry.reading(of: item.kind)?.readWhole(item, needs: needs, into: &session.context)
        // What its detail does not give (a head's statuses), which the detail reads above leave
        // out for a rule outside its schedule: the item is explained whole, as offline.
        _ = try await session.readBeyondDetail(needs, of: item.kind, number: item.number, in: item.repository)
        if let activity = basis.activity { session.annotate(with: activity) }
        var state = ForgeState(now: now, me: me, repositories: Array(session.context.repositories.values))
        state.automation = automation
        return state
    }
}
