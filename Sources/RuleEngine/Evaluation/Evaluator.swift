import Foundation
import GitbayKit
import YAML

/// Decides what the rules do to the forge: a pure function of rules, state, `now` and `me` to a
/// ``Plan``, in a deterministic order.
///
/// Rules run in the order given; within a rule, repositories in path order and items oldest
/// (lowest number) first, so a run cut short by a limit resumes where it stopped next time.
public struct Evaluator: Sendable {
    public let registry: PluginRegistry
    public let options: EvaluationOptions

    public init(registry: PluginRegistry, options: EvaluationOptions = EvaluationOptions()) {
        self.registry = registry
        self.options = options
    }

    /// The hidden marker the bot leaves in its comments for `rule` on `item`.
    public static func marker(rule: String, item reference: String) -> String {
        "<!-- gitbay-bot:rule=\(rule) item=\(reference) -->"
    }

    public func plan(rules: [Rule], state: ForgeState, source: String) -> Plan {
        var summaries: [Plan.RuleSummary] = []
        var entries: [PlanEntry] = []
        var guards: [String] = []
        var items = ItemsByRepository()
        for rule in rules {
            var (summary, ruleEntries) = evaluate(rule, state: state, items: &items)
            holdBeyondGuards(rule, summary: &summary, entries: &ruleEntries, guards: &guards)
            summaries.append(summary)
            entries += ruleEntries
        }
        capActions(&entries, guards: &guards)
        var acting: [String: Int] = [:]
        var held: [String: Int] = [:]
        for entry in entries {
            if entry.hasPendingActions { acting[entry.rule, default: 0] += 1 }
            if entry.actions.contains(where: { $0.status == .held }) { held[entry.rule, default: 0] += 1 }
        }
        for index in summaries.indices {
            summaries[index].acting = acting[summaries[index].name] ?? 0
            summaries[index].held = held[summaries[index].name] ?? 0
        }
        return Plan(
            evaluatedAt: state.now, me: state.me, source: source, rules: summaries, entries: entries, guards: guards)
    }

    /// Each repository's items of each kind with their contexts, sorted and built once per plan
    /// rather than once per rule.
    struct ItemsByRepository {
        private var contexts: [ItemKind: [RepositoryPath: [ItemContext]]] = [:]

        mutating func contexts(of kind: ItemKind, in repository: RepositoryState, state: ForgeState) -> [ItemContext] {
            if let known = contexts[kind]?[repository.path] { return known }
            let built = Evaluator.items(of: kind, in: repository).map {
                ItemContext(item: $0, repository: repository, now: state.now, me: state.me)
            }
            contexts[kind, default: [:]][repository.path] = built
            return built
        }
    }

    /// A rule's condition with its fields looked up once, deciding an item with the fewest tests
    /// and describing none: the verdict ``ConditionTree/evaluate(_:registry:results:)`` gives, as
    /// `all` stops at its first false part and `any` at its first true one.
    private indirect enum Decision {
        case all([Decision])
        case any([Decision])
        case not(Decision)
        case test(CheckedCondition, FieldDefinition?)

        init(_ tree: ConditionTree, kind: ItemKind, registry: PluginRegistry) {
            switch tree {
            case .all(let trees): self = .all(trees.map { Decision($0, kind: kind, registry: registry) })
            case .any(let trees): self = .any(trees.map { Decision($0, kind: kind, registry: registry) })
            case .not(let tree): self = .not(Decision(tree, kind: kind, registry: registry))
            case .test(let condition, _): self = .test(condition, registry.field(condition.field.name, for: kind))
            }
        }

        func holds(_ context: ItemContext) -> Bool? {
            switch self {
            case .all(let parts):
                var verdict: Bool? = true
                for part in parts {
                    switch part.holds(context) {
                    case false: return false
                    case nil: verdict = nil
                    default: break
                    }
                }
                return verdict
            case .any(let parts):
                var verdict: Bool? = false
                for part in parts {
                    switch part.holds(context) {
                    case true: return true
                    case nil: verdict = nil
                    default: break
                    }
                }
                return verdict
            case .not(let part):
                return part.holds(context).map { !$0 }
            case .test(let condition, let field):
                guard let field, context.knows(field.needs) else { return nil }
                return condition.holds(for: field.value(context), me: context.me)
            }
        }
    }

    /// Every item of the rule's kind in its scope, with the entry for each one that matches.
    private func evaluate(
        _ rule: Rule, state: ForgeState, items sortedItems: inout ItemsByRepository
    ) -> (
        Plan.RuleSummary, [PlanEntry]
    ) {
        var summary = Plan.RuleSummary(
            name: rule.name, kind: rule.kind, description: rule.description, location: rule.location.description)
        var entries: [PlanEntry] = []
        let selection = registry.field(Self.selectionField(for: rule.kind), for: rule.kind)
        let selected = rule.condition.requiredValues(of: Self.selectionField(for: rule.kind))
        let decision = Decision(rule.condition, kind: rule.kind, registry: registry)
        let recordsActivity = rule.condition.needs(registry: registry, kind: rule.kind).contains(.activity)
        for repository in state.repositories where rule.scope.contains(repository.path) && !repository.archived {
            for context in sortedItems.contexts(of: rule.kind, in: repository, state: state) {
                if let selected, let value = selection?.value(context),
                    case .text(let text) = value, !selected.contains(text)
                {
                    // Outside what the rule selects on the server too (`is:open`, `--status`),
                    // so it is not counted among the items the rule looked at, online or offline.
                    continue
                }
                summary.considered += 1
                // Most items do not match: decide first, short-circuiting and recording nothing,
                // and record every condition's observed value only for the items that do.
                guard decision.holds(context) == true else { continue }
                summary.matched += 1
                entries.append(entry(rule, context: context, recordsActivity: recordsActivity))
            }
        }
        return (summary, entries)
    }

    /// The entry of a rule on an item it matches: every condition's observed value and the actions.
    private func entry(_ rule: Rule, context: ItemContext, recordsActivity: Bool) -> PlanEntry {
        let item = context.item
        let path = context.repository.path
        var results: [ConditionResult] = []
        _ = rule.condition.evaluate(context, registry: registry, results: &results)
        let reference = item.reference(in: path)
        return PlanEntry(
            rule: rule.name,
            item: PlannedItem(
                repository: path.description, kind: rule.kind, number: item.number, title: item.title,
                reference: reference, updatedAt: recordsActivity ? item.updatedAt : nil),
            reasons: results,
            actions: rule.actions.map { plannedAction($0, rule: rule, context: context, reference: reference) },
            precondition: Precondition(rule.condition))
    }

    /// Why one item is or is not acted on, for `explain`; `nil` when the state does not hold it.
    ///
    /// Every rule of the item's kind comes with each condition's observed value and verdict, and
    /// the actions as the whole plan decides them (with the limit or guard that held one back).
    public func explanation(
        of reference: ItemReference, rules: [Rule], state: ForgeState, source: String
    ) -> Explanation? {
        guard let repository = state.repositories.first(where: { $0.path == reference.repository }),
            let item = Self.items(of: reference.kind, in: repository).first(where: { $0.number == reference.number })
        else { return nil }
        let plan = plan(rules: rules, state: state, source: source)
        let context = ItemContext(item: item, repository: repository, now: state.now, me: state.me)
        let results = rules.filter { $0.kind == reference.kind }.map { rule in
            let inScope = rule.scope.contains(reference.repository)
            var conditions: [ConditionResult] = []
            let holds = rule.condition.evaluate(context, registry: registry, results: &conditions)
            let planned = plan.entries.first { $0.rule == rule.name && $0.item.reference == reference.description }
            let actions =
                planned?.actions
                ?? (inScope && holds == true
                    ? rule.actions.map {
                        plannedAction($0, rule: rule, context: context, reference: reference.description)
                    } : [])
            let verdict: Explanation.Verdict =
                !inScope ? .notMatched : holds == true ? .matched : holds == false ? .notMatched : .unknown
            return Explanation.RuleResult(
                name: rule.name, description: rule.description, location: rule.location.description, inScope: inScope,
                verdict: verdict, conditions: conditions, actions: actions)
        }
        return Explanation(
            evaluatedAt: state.now, me: state.me, source: source,
            item: PlannedItem(
                repository: reference.repository.description, kind: reference.kind, number: reference.number,
                title: item.title, reference: reference.description),
            rules: results, guards: plan.guards)
    }

    /// The field a listing can filter on for each kind: what ``ReadPlanner`` pushes to the server.
    static func selectionField(for kind: ItemKind) -> String {
        kind == .builds ? "status" : "state"
    }

    /// The items of one kind in a repository, oldest first.
    public static func items(of kind: ItemKind, in repository: RepositoryState) -> [Item] {
        switch kind {
        case .issues:
            return repository.issues.sorted { $0.issue.number < $1.issue.number }.map(Item.issue)
        case .mergeRequests:
            return repository.mergeRequests.sorted { $0.mergeRequest.number < $1.mergeRequest.number }
                .map(Item.mergeRequest)
        case .builds:
            return repository.builds.sorted { $0.number < $1.number }.map(Item.build)
        }
    }

    /// One action on one item: its command, or why it will not run.
    func plannedAction(_ action: RuleAction, rule: Rule, context: ItemContext, reference: String) -> PlannedAction {
        guard let definition = registry.action(action.name, for: rule.kind) else {
            return PlannedAction(action: action.name, status: .invalid, note: "no plugin offers this action")
        }
        guard context.knows(definition.needs) else {
            return PlannedAction(
                action: action.name, status: .invalid, note: "what this action must check was not read")
        }
        let request = ActionRequest(
            argument: argument(action.argument, context: context, kind: rule.kind), rule: rule.name,
            marker: Self.marker(rule: rule.name, item: reference))
        if let reason = definition.refusal(context) {
            return PlannedAction(action: action.name, status: .refused, note: reason, argument: request.argument)
        }
        if definition.isDone(request, context) {
            return PlannedAction(action: action.name, status: .alreadyDone, argument: request.argument)
        }
        do {
            let command = try definition.command(request, context)
            return PlannedAction(
                action: action.name, status: .pending, command: command, note: definition.warning(context),
                argument: request.argument)
        } catch {
            return PlannedAction(action: action.name, status: .invalid, note: "\(error)", argument: request.argument)
        }
    }

    /// The argument with templates expanded from the item's fields and `@me` resolved.
    func argument(_ argument: RuleAction.Argument, context: ItemContext, kind: ItemKind) -> ActionArgument {
        switch argument {
        case .none:
            return .none
        case .names(let names):
            return .names(names.map { $0 == "@me" ? context.me : $0 })
        case .milestone(let title):
            return .milestone(title)
        case .template(let template):
            return .text(
                template.render { name in
                    guard let field = registry.field(name, for: kind), context.knows(field.needs) else { return "" }
                    let value = field.value(context)
                    return value == .absent ? "" : value.display
                })
        }
    }

    /// The tripwire and the rule's own limit.
    private func holdBeyondGuards(
        _ rule: Rule, summary: inout Plan.RuleSummary, entries: inout [PlanEntry], guards: inout [String]
    ) {
        let acting = entries.filter(\.hasPendingActions).count
        let share = summary.considered == 0 ? 0 : Double(acting) / Double(summary.considered)
        if !options.force, acting > options.tripwireFloor, share > options.tripwireShare {
            let percent = Int((share * 100).rounded())
            let note =
                "tripwire: rule '\(rule.name)' would act on \(acting) of \(summary.considered) \(rule.kind.rawValue) "
                + "(\(percent)%, more than \(Int(options.tripwireShare * 100))%); check the rule, then use --force"
            guards.append(note)
            hold(&entries, where: { _ in true }, note: note)
            return
        }
        if let limit = rule.limit, acting > limit {
            var seen = 0
            let note = "rule '\(rule.name)' limit of \(limit) reached"
            hold(
                &entries,
                where: { entry in
                    guard entry.hasPendingActions else { return false }
                    seen += 1
                    return seen > limit
                }, note: note)
            guards.append("\(note): \(acting - limit) more \(rule.kind.rawValue) left for the next run")
        }
    }

    /// The run-wide cap on commands.
    private func capActions(_ entries: inout [PlanEntry], guards: inout [String]) {
        var sent = 0
        var heldCommands = 0
        let note = "--max-actions \(options.maxActions) reached"
        for index in entries.indices {
            for action in entries[index].actions.indices where entries[index].actions[action].status == .pending {
                if sent < options.maxActions {
                    sent += 1
                } else {
                    entries[index].actions[action].status = .held
                    entries[index].actions[action].note = note
                    heldCommands += 1
                }
            }
        }
        if heldCommands > 0 {
            guards.append("\(note): \(heldCommands) more commands left for the next run")
        }
    }

    private func hold(_ entries: inout [PlanEntry], where select: (PlanEntry) -> Bool, note: String) {
        for index in entries.indices where select(entries[index]) {
            for action in entries[index].actions.indices where entries[index].actions[action].status == .pending {
                entries[index].actions[action].status = .held
                entries[index].actions[action].note = note
            }
        }
    }
}
