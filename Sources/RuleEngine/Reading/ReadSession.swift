import Foundation
import GitbayKit

/// The mutable work of one ``ReadPlanner/read(_:from:at:policy:basis:)`` call: the ``ReadContext``
/// the kinds read into, and what the planner alone decides with (which details to read, which
/// were read afresh, what the guards left unread, the sweep's bookkeeping).
struct ReadSession: Sendable {
    /// What has been read so far, and what the kinds read with.
    var context: ReadContext
    /// What the rolling sweep and the read budget recorded (``SweepLedger``): the session's, the
    /// context holding only a handle for the kinds' sweep calls.
    let sweep: SweepLedger
    /// What the guarded detail reads left unread, one line per rule (``ForgeState/unread``).
    var unreadNotes: [String] = []
    /// The items a `watch` pass is about; details of others are not read.
    var only: WatchTargets?
    /// The items whose details were read from the server in this session.
    var freshDetails: [FreshDetail] = []
    /// The accounts besides the bot's whose activity is automation, as the conditions judge it.
    var automation: Set<String> = []
    /// How far back a comment may hold a command (``ReadPlanner/commandWindow``).
    var commandWindow = EvaluationOptions.defaultCommandWindow

    init(registry: PluginRegistry, reader: any ForgeReader, readBudget: Int? = nil) {
        sweep = SweepLedger(reader: reader, readBudget: readBudget)
        context = ReadContext(registry: registry, sweep: sweep)
    }

    var registry: PluginRegistry { context.registry }

    /// Lists `rules` (all of `kind`) through the kind's reader; a kind no plugin reads lists nothing.
    mutating func list(_ rules: [Rule], of kind: ItemKind) async throws {
        guard !rules.isEmpty, let reader = registry.reading(of: kind) else { return }
        try await reader.list(rules, into: &context)
    }

    /// What the listings have told of each kind's items so far: every need some listed item knows
    /// (``ForgeState/listed``).
    func listedNeeds() -> [ItemKind: Set<ReadNeed>] {
        var listed: [ItemKind: Set<ReadNeed>] = [:]
        for repository in context.repositories.values {
            for kind in registry.kinds {
                for item in registry.items(of: kind, in: repository) {
                    listed[kind, default: []].formUnion(item.known)
                }
            }
        }
        return listed
    }

    /// Reads the details (`issue show`, `mr show`) of every item some rule may still act on: its
    /// conditions hold or are undecided, and it lacks what a condition or an action needs.
    ///
    /// A rule outside its schedule is judged on its listing alone, so it reads none.
    mutating func readDetails(rules: [Rule], now: Date, me: String) async throws {
        var wanted: [ItemKind: [RepositoryPath: [Int: Set<ReadNeed>]]] = [:]
        for rule in rules where rule.schedule?.verdict(at: now).open != false {
            let condition = CompiledCondition(rule.condition, kind: rule.kind, registry: registry)
            let actionNeeds = rule.actionNeeds(registry: registry)
            for (path, repository) in context.repositories where rule.scope.contains(path) && !repository.archived {
                for item in registry.items(of: rule.kind, in: repository) {
                    let beyond = actionNeeds.intersection(registry.beyondDetail)
                    guard !item.known.contains(.freshDetail) || !beyond.isSubset(of: item.known) else { continue }
                    if let only, !only.contains(registry.reference(to: item, in: path), kind: rule.kind, in: path) {
                        continue
                    }
                    let itemContext = ItemContext(
                        item: item, repository: repository, now: now, me: me, registry: registry,
                        automation: automation)
                    if rule.command != nil {
                        // Its conditions decide only the reply, so every item that may hold a command is read.
                        guard mayHoldCommands(rule, item: item, now: now) else { continue }
                        let needs = rule.condition.needs(registry: registry, kind: rule.kind).union(actionNeeds)
                        wanted[rule.kind, default: [:]][path, default: [:]][item.number, default: []].formUnion(
                            needs.intersection(registry.beyondDetail))
                        continue
                    }
                    let verdict = condition.decide(itemContext)
                    guard verdict != false else { continue }
                    guard verdict == nil || !itemContext.knows(actionNeeds) else { continue }
                    wanted[rule.kind, default: [:]][path, default: [:]][item.number, default: []].formUnion(beyond)
                }
            }
        }
        for kind in registry.kinds(ordering: Array(wanted.keys)) {
            guard let naming = registry.naming(of: kind), let paths = wanted[kind] else { continue }
            var requests = 0
            for (path, numbers) in paths.sorted(by: { $0.key < $1.key }) {
                for (number, beyond) in numbers.sorted(by: { $0.key < $1.key }) {
                    if registry.items(of: kind, in: context.repository(path)).contains(where: {
                        $0.number == number && !$0.known.contains(.freshDetail)
                    }) {
                        try await readFreshDetail(kind, number: number, in: path)
                        requests += 1
                    }
                    if try await readBeyondDetail(beyond, of: kind, number: number, in: path) { requests += 1 }
                }
            }
            if requests > 0 { context.note(naming.detailStep, requests: requests) }
        }
    }

    /// Whether `item` may hold a command for `rule` written within the command window, as far as
    /// its listing tells.
    func mayHoldCommands(_ rule: Rule, item: Item, now: Date) -> Bool {
        guard let commented = registry.commented(rule.kind) else { return false }
        return commented.mayHoldComments(item, since: now.addingTimeInterval(-commandWindow))
    }

    /// Sets every repository's activity from `history`, so each judgement weighs who did what.
    mutating func annotate(with history: ActivityHistory) {
        for path in context.repositories.keys {
            context.update(path) { history.annotate(&$0) }
        }
    }
}
