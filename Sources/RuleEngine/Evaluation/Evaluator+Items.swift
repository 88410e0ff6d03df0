import Foundation
import GitbayKit
import YAML

extension Evaluator {
    /// What evaluating a rule over many items needs, looked up once per plan; a class, so that
    /// handing it to each entry shares it rather than copying it.
    final class PreparedRule: Sendable {
        let rule: Rule
        let condition: CompiledCondition
        /// The condition left to decide for an item whose `state` (`status`) is among
        /// ``selected``: without the conditions that say so, which half the tests would repeat.
        let conditionAfterSelection: CompiledCondition
        let precondition: Precondition
        let actions: [PreparedAction]
        /// Whether `idle` or `updated_at` is tested, so the entry records the time it saw.
        let recordsActivity: Bool
        /// Whether the rule answers a command (``Rule/command``), asked of every item it looks at
        /// without reaching into the rule.
        let answersCommands: Bool
        /// Whether a condition tests a field the rule waits on while absent
        /// (``FieldDefinition/absenceWaits``), so an item it rejects is asked whether it waits.
        let mayWait: Bool
        /// The values of `state` (`status` for builds) the rule requires, as the server filters them.
        ///
        /// A handful at most, which an array tests faster than a set hashes. `nil` for a rule with
        /// a command: its conditions decide only its reply, so a command on an item they do not
        /// select (a closed issue) is answered all the same, with the condition that fails.
        let selected: [String]?

        /// - Parameter slots: the field slots shared by the rules of the rule's kind.
        init(_ rule: Rule, registry: PluginRegistry, slots: inout FieldSlots) {
            self.rule = rule
            // A plan records which of the labels a condition names an item carries: what every read learns.
            condition = CompiledCondition(
                rule.condition, kind: rule.kind, registry: registry, slots: &slots, namedLabelsOnly: true)
            // Only a field read with the list row is known for certain once the selection passed.
            let selection = registry.selectionField(for: rule.kind)
            conditionAfterSelection =
                if let selection, selection.needs.isEmpty {
                    CompiledCondition(
                        rule.condition.removingRequirements(on: selection.name), kind: rule.kind, registry: registry,
                        slots: &slots)
                } else {
                    condition
                }
            precondition = Precondition(rule.condition)
            actions = rule.actions.map {
                PreparedAction(
                    $0, definition: registry.action($0.name, for: rule.kind),
                    needs: $0.needs(for: rule.kind, registry: registry), registry: registry)
            }
            recordsActivity = rule.condition.needs(registry: registry, kind: rule.kind).contains(.activity)
            answersCommands = rule.command != nil
            mayWait = rule.condition.tests.contains {
                registry.field($0.field.name, for: rule.kind)?.absenceWaits == true
            }
            selected =
                answersCommands
                ? nil : selection.flatMap { rule.condition.requiredValues(of: $0.name) }.map(Array.init)
        }
    }

    /// An action with the plugin's definition of it (`nil` when no plugin offers it); a class,
    /// since a definition is a dozen closures and strings that every entry would otherwise copy.
    final class PreparedAction: Sendable {
        let action: RuleAction
        let definition: ActionDefinition?
        /// What the action needs read, its templates' fields included (``RuleAction/needs(for:registry:)``).
        let needs: Set<ReadNeed>
        /// ``needs`` as bits, made once per plan rather than once per item.
        let needsMask: ReadNeed.Mask

        init(_ action: RuleAction, definition: ActionDefinition?, needs: Set<ReadNeed>, registry: PluginRegistry) {
            self.action = action
            self.definition = definition
            self.needs = needs
            needsMask = registry.mask(needs)
        }
    }

    /// Which items each rule matched, before any entry is built.
    struct Matches {
        /// Each rule's counts of items considered and matched (acting and held come later).
        var summaries: [Plan.RuleSummary]
        /// Every item some rule matched, each once.
        var contexts: [ItemContext] = []
        /// The field values derived while deciding, for each of ``contexts``: the entry records
        /// them, and deriving them again was a third of building it.
        var values: [FieldValues] = []
        /// For each rule, the items it matched as indices into ``contexts``, in the order the
        /// rule sees them: repositories in path order, then oldest first.
        var items: [[Int]]
    }

    /// Decides every rule on every item of its kind in its scope.
    ///
    /// Items are taken one at a time through all their rules, so each is read from memory once
    /// rather than once per rule (on a large forge the difference between working in the cache
    /// and waiting on memory), and its field values are derived once for all the rules. Each
    /// rule's matches still come out in the order it would see them running alone.
    ///
    /// One core only: evaluation spends its time retaining and releasing shared values, and two
    /// threads doing that to the same objects took 1.8 times the CPU for a tenth off the wall time.
    ///
    /// A rule outside its schedule, on a state read from a server (``ForgeState/listed``), judges
    /// each item as its listing showed it, through a context of its own: no detail read for
    /// another rule or served by the read cache decides which entries it holds.
    func match(
        _ rules: [PreparedRule], slots: [ItemKind: FieldSlots], state: ForgeState, only: WatchTargets? = nil
    ) -> Matches {
        var matches = Matches(
            summaries: rules.map { prepared in
                let rule = prepared.rule
                return Plan.RuleSummary(
                    name: rule.name, kind: rule.kind, description: rule.description,
                    location: rule.location.description, schedule: rule.schedule)
            },
            items: Array(repeating: [], count: rules.count))
        let patterns = Patterns()
        let listingOnly = rules.map { prepared in
            state.listed != nil && prepared.rule.schedule?.verdict(at: state.now).open == false
        }
        for kind in registry.kinds {
            let ofKind = rules.indices.filter { rules[$0].rule.kind == kind }
            guard !ofKind.isEmpty else { continue }
            let selection = registry.selectionField(for: kind)?.value
            for repository in state.repositories where !repository.archived {
                let inScope = ofKind.filter { rules[$0].rule.scope.contains(repository.path) }
                guard !inScope.isEmpty else { continue }
                let whole = only.map { $0.wholeKinds[repository.path]?.contains(kind) == true } ?? true
                // Slots for the listed view only where a rule outside its schedule needs one.
                let listedSlots = inScope.contains { listingOnly[$0] } ? slots[kind]?.count ?? 0 : 0
                let repositoryKnown = registry.bits.mask(read: repository.known)
                for item in registry.items(of: kind, in: repository) {
                    if !whole, let only,
                        !only.items.contains(registry.reference(to: item, in: repository.path))
                    {
                        continue
                    }
                    let context = ItemContext(
                        item: item, repository: repository, repositoryKnown: repositoryKnown, now: state.now,
                        me: state.me, bits: registry.bits, automation: state.automation)
                    var values = FieldValues(count: slots[kind]?.count ?? 0, patterns: patterns)
                    // The item as its listing showed it, made for the first rule outside its schedule.
                    var listed: ItemContext?
                    var listedValues = FieldValues(count: listedSlots, patterns: patterns)
                    // The rules outside their schedule that matched it, given the listed view once known.
                    var matchedListed: [Int] = []
                    let selectionValue = selection?(context)
                    var matched = false
                    for index in inScope {
                        let prepared = rules[index]
                        var condition = prepared.condition
                        if let selected = prepared.selected, case .text(let text) = selectionValue {
                            // Outside what the rule selects on the server too (`is:open`, `--status`),
                            // so it is not counted among the items the rule looked at, online or offline.
                            guard selected.contains(text) else { continue }
                            condition = prepared.conditionAfterSelection
                        }
                        matches.summaries[index].considered += 1
                        if prepared.answersCommands {
                            // Answered per command in its comments, whose entries say how the conditions fare.
                            guard hasOpenCommands(prepared.rule, context: context) else { continue }
                            matches.summaries[index].matched += 1
                            matches.items[index].append(matches.contexts.count)
                            matched = true
                            continue
                        }
                        if listingOnly[index] {
                            let view =
                                listed
                                ?? ItemContext(
                                    item: item, repository: repository, repositoryKnown: repositoryKnown,
                                    now: state.now, me: state.me, bits: registry.bits, automation: state.automation,
                                    listing: state.listed?[kind] ?? [])
                            listed = view
                            guard condition.decide(view, values: &listedValues) == true else { continue }
                            matches.summaries[index].matched += 1
                            matchedListed.append(index)
                            continue
                        }
                        let verdict = condition.decide(context, values: &values)
                        guard verdict == true else {
                            if verdict == false, prepared.mayWait,
                                let fields = condition.waitedFields(context, values: &values)
                            {
                                let reference = registry.reference(to: item, in: repository.path).description
                                matches.summaries[index].countWaiting(reference, on: fields)
                            }
                            continue
                        }
                        matches.summaries[index].matched += 1
                        matches.items[index].append(matches.contexts.count)
                        matched = true
                    }
                    if matched {
                        matches.contexts.append(context)
                        matches.values.append(values)
                    }
                    if let listed, !matchedListed.isEmpty {
                        for index in matchedListed {
                            matches.items[index].append(matches.contexts.count)
                        }
                        matches.contexts.append(listed)
                        matches.values.append(listedValues)
                    }
                }
            }
        }
        return matches
    }

    /// The entry of a rule on an item it matches: every condition's observed value and the actions.
    func entry(_ prepared: PreparedRule, context: ItemContext, values: inout FieldValues) -> PlanEntry {
        let rule = prepared.rule
        let item = context.item
        let reference = registry.reference(to: item, in: context.repository.path)
        var results: [ConditionResult] = []
        results.reserveCapacity(prepared.condition.testCount)
        _ = prepared.condition.evaluate(context, values: &values, results: &results)
        return PlanEntry(
            rule: rule.name,
            item: PlannedItem(
                repository: context.repository.path.description, kind: rule.kind, number: item.number,
                title: item.title, reference: reference, updatedAt: prepared.recordsActivity ? item.updatedAt : nil),
            reasons: results,
            actions: prepared.actions.map {
                plannedAction(
                    $0.action, definition: $0.definition, needs: $0.needsMask, rule: rule, context: context,
                    reference: reference)
            },
            precondition: prepared.precondition)
    }
}
