import Foundation
import GitbayKit
import YAML

extension Evaluator {
    /// What evaluating a rule over many items needs, looked up once per plan; a class, so that
    /// handing it to each entry shares it rather than copying it.
    final class PreparedRule: Sendable {
        let rule: Rule
        let condition: CompiledCondition
        let precondition: Precondition
        /// Each action with the plugin's definition of it (`nil` when no plugin offers it).
        let actions: [(action: RuleAction, definition: ActionDefinition?)]
        /// Whether `idle` or `updated_at` is tested, so the entry records the time it saw.
        let recordsActivity: Bool
        /// The values of `state` (`status` for builds) the rule requires, as the server filters
        /// them; a handful at most, which an array tests faster than a set hashes.
        let selected: [String]?

        /// - Parameter slots: the field slots shared by the rules of the rule's kind.
        init(_ rule: Rule, registry: PluginRegistry, slots: inout FieldSlots) {
            self.rule = rule
            condition = CompiledCondition(rule.condition, kind: rule.kind, registry: registry, slots: &slots)
            precondition = Precondition(rule.condition)
            actions = rule.actions.map { ($0, registry.action($0.name, for: rule.kind)) }
            recordsActivity = rule.condition.needs(registry: registry, kind: rule.kind).contains(.activity)
            selected = rule.condition.requiredValues(of: Evaluator.selectionField(for: rule.kind)).map(Array.init)
        }
    }

    /// One rule's findings over the whole forge, before the guards.
    struct RuleEvaluation {
        let prepared: PreparedRule
        var summary: Plan.RuleSummary
        var entries: [PlanEntry] = []

        var rule: Rule { prepared.rule }

        init(_ prepared: PreparedRule) {
            self.prepared = prepared
            let rule = prepared.rule
            summary = Plan.RuleSummary(
                name: rule.name, kind: rule.kind, description: rule.description, location: rule.location.description)
        }
    }

    /// Runs every rule over every item of its kind in its scope.
    ///
    /// Items are taken one at a time through all their rules, so each is read from memory once
    /// rather than once per rule: on a large forge that is the difference between working in the
    /// cache and waiting on memory. Each rule still sees its items in repository path order,
    /// oldest first, so its entries come out as if the rules had run one after another.
    ///
    /// One core only: evaluation spends its time retaining and releasing shared values, and two
    /// threads doing that to the same objects took 1.8 times the CPU for a tenth off the wall time.
    func evaluate(_ rules: [Rule], state: ForgeState) -> [RuleEvaluation] {
        var slots: [ItemKind: FieldSlots] = [:]
        let rules = rules.map { PreparedRule($0, registry: registry, slots: &slots[$0.kind, default: FieldSlots()]) }
        var evaluations = rules.map(RuleEvaluation.init)
        for kind in ItemKind.allCases {
            let ofKind = rules.indices.filter { rules[$0].rule.kind == kind }
            guard !ofKind.isEmpty else { continue }
            let selection = registry.field(Self.selectionField(for: kind), for: kind)?.value
            for repository in state.repositories where !repository.archived {
                let inScope = ofKind.filter { rules[$0].rule.scope.contains(repository.path) }
                guard !inScope.isEmpty else { continue }
                let path = repository.path.description
                for item in Self.items(of: kind, in: repository) {
                    let context = ItemContext(item: item, repository: repository, now: state.now, me: state.me)
                    var values = FieldValues(count: slots[kind]?.count ?? 0)
                    let selectionValue = selection?(context)
                    var reference: String?
                    for index in inScope {
                        let prepared = rules[index]
                        if let selected = prepared.selected, case .text(let text) = selectionValue,
                            !selected.contains(text)
                        {
                            // Outside what the rule selects on the server too (`is:open`, `--status`),
                            // so it is not counted among the items the rule looked at, online or offline.
                            continue
                        }
                        evaluations[index].summary.considered += 1
                        // Most items do not match: decide first, short-circuiting and recording
                        // nothing, and record every condition's observed value only for the items that do.
                        guard prepared.condition.decide(context, values: &values) == true else { continue }
                        evaluations[index].summary.matched += 1
                        let known = reference ?? item.reference(in: repository.path)
                        reference = known
                        evaluations[index].entries.append(
                            entry(prepared, context: context, values: &values, path: path, reference: known))
                    }
                }
            }
        }
        return evaluations
    }

    /// The entry of a rule on an item it matches: every condition's observed value and the actions.
    private func entry(
        _ prepared: PreparedRule, context: ItemContext, values: inout FieldValues, path: String, reference: String
    ) -> PlanEntry {
        let rule = prepared.rule
        let item = context.item
        var results: [ConditionResult] = []
        _ = prepared.condition.evaluate(context, values: &values, results: &results)
        return PlanEntry(
            rule: rule.name,
            item: PlannedItem(
                repository: path, kind: rule.kind, number: item.number, title: item.title,
                reference: reference, updatedAt: prepared.recordsActivity ? item.updatedAt : nil),
            reasons: results,
            actions: prepared.actions.map {
                plannedAction($0.action, definition: $0.definition, rule: rule, context: context, reference: reference)
            },
            precondition: prepared.precondition)
    }
}
