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

    /// Why an action whose needs were not read is held.
    static let unreadNote = "not read: a guard holds this entry back this run"

    /// The hidden marker the bot leaves in its comments for `rule` on `item`; with `command` (a
    /// comment's id), the marker of its reply to that command, which no other reply carries.
    public static func marker(rule: String, item reference: String, command: Int? = nil) -> String {
        // Every action of every entry asks for one: no empty piece for the rules without a command.
        guard let command else { return "\(markerPrefix)\(rule) item=\(reference) -->" }
        return "\(markerPrefix)\(rule) item=\(reference) command=\(command) -->"
    }

    /// How every marker starts (``marker(rule:item:command:)``).
    static let markerPrefix = "<!-- gitbay-bot:rule="

    /// The plan of `rules` on `state`: each rule's entries in rule order, with the rule's limit,
    /// the tripwire and `--max-actions` applied; `source` names where the state came from.
    ///
    /// With `only` (a `watch` pass), the items outside it are not looked at: they neither match
    /// nor count towards a rule's tripwire.
    public func plan(rules: [Rule], state: ForgeState, source: String, only: WatchTargets? = nil) -> Plan {
        var slots: [ItemKind: FieldSlots] = [:]
        let prepared = rules.map { PreparedRule($0, registry: registry, slots: &slots[$0.kind, default: FieldSlots()]) }
        var matches = match(prepared, slots: slots, state: state, only: only)
        var summaries = matches.summaries
        var entries: [PlanEntry] = []
        var guards: [String] = []
        var ranges: [Range<Int>] = []
        entries.reserveCapacity(matches.items.reduce(0) { $0 + $1.count })
        // The command rules that matched each item: a comment's commands are answered together.
        var commandRules: [Int: [Rule]] = [:]
        for (index, rule) in prepared.enumerated() where rule.answersCommands {
            for item in matches.items[index] {
                commandRules[item, default: []].append(rule.rule)
            }
        }
        var answered: [Int: [String: [PlanEntry]]] = [:]
        // Built straight into the plan, rule after rule, so no entry is ever copied or moved.
        for (index, rule) in prepared.enumerated() {
            let start = entries.endIndex
            for item in matches.items[index] {
                if rule.answersCommands {
                    if answered[item] == nil {
                        answered[item] = commandAnswers(commandRules[item] ?? [], context: matches.contexts[item])
                    }
                    entries += answered[item]?[rule.rule.name] ?? []
                } else {
                    entries.append(entry(rule, context: matches.contexts[item], values: &matches.values[item]))
                }
            }
            ranges.append(start..<entries.endIndex)
            if let note = rule.rule.schedule?.heldNote(at: state.now) {
                summaries[index].outsideSchedule = note
                for entry in ranges[index] {
                    entries[entry].hold(note: note, unread: true)
                }
            }
            summaries[index].tripwire = holdBeyondGuards(
                rule.rule, summary: summaries[index], entries: &entries, range: ranges[index], guards: &guards)
        }
        CommentAnswer.settle(&entries) { registry.isAcknowledgement($0, of: $1) }
        let answers = CommentAnswer.all(in: entries)
        shareAmongRepositories(&entries, answers: answers, origins: Self.origins(of: rules), guards: &guards)
        capActions(&entries, answers: answers, guards: &guards)
        let notes = limitReplies(&entries, answers: answers) + waitingCommands(in: entries)
        waitForCommands(&entries)
        guards += state.unread
        // Each rule's entries sit together, in rule order, so its counts come from its own range.
        for (index, range) in ranges.enumerated() {
            summaries[index].acting += entries.count(in: range) { $0.hasPendingActions }
            summaries[index].held += entries.count(in: range) { $0.hasHeldActions }
        }
        var plan = Plan(
            evaluatedAt: state.now, me: state.me, source: source, rules: summaries, entries: entries, guards: guards)
        plan.automation = state.automation.isEmpty ? nil : state.automation.sorted()
        plan.notes = notes.isEmpty ? nil : notes
        return plan
    }

    /// Why one item is or is not acted on, for `explain`; `nil` when the state does not hold it.
    ///
    /// Every rule of the item's kind comes with each condition's observed value and verdict, and
    /// the actions as the whole plan decides them (with the limit or guard that held one back).
    public func explanation(
        of reference: ItemReference, rules: [Rule], state: ForgeState, source: String
    ) -> Explanation? {
        guard let repository = state.repositories.first(where: { $0.path == reference.repository }),
            let item = registry.items(of: reference.kind, in: repository).first(where: { $0.key == reference.key }
            )
        else { return nil }
        let plan = plan(rules: rules, state: state, source: source)
        let context = ItemContext(
            item: item, repository: repository, now: state.now, me: state.me, registry: registry,
            automation: state.automation)
        let results = rules.filter { $0.kind == reference.kind }.map { rule in
            let inScope = rule.scope.contains(reference.repository)
            if let trigger = rule.command {
                return commandResult(
                    rule, trigger: trigger, inScope: inScope, context: context, plan: plan, reference: reference)
            }
            var conditions: [ConditionResult] = []
            let condition = CompiledCondition(rule.condition, kind: rule.kind, registry: registry)
            let holds = condition.evaluate(context, results: &conditions)
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
                verdict: verdict, conditions: conditions, actions: actions,
                schedule: rule.schedule.map { Explanation.ScheduleResult($0, at: state.now) },
                outsideListing: inScope ? outsideListing(of: rule, context: context) : nil,
                waitsOn: inScope && holds == false ? condition.waitedFields(context) : nil)
        }
        return Explanation(
            evaluatedAt: state.now, me: state.me, source: source,
            item: PlannedItem(
                repository: reference.repository.description, kind: reference.kind, number: reference.number,
                title: item.title, reference: reference.description),
            rules: results, guards: plan.guards)
    }

    /// Why `rule`'s listing leaves out the item of `context`: `nil` when it lists it, or the kind
    /// has no selection field, or the rule does not pin it.
    private func outsideListing(of rule: Rule, context: ItemContext) -> String? {
        guard let field = registry.selectionField(for: rule.kind),
            let required = rule.condition.requiredValues(of: field.name),
            case .text(let value) = field.value(context), !required.contains(value)
        else { return nil }
        let noun = registry.noun(of: rule.kind)
        return "outside its listing: it reads only \(noun)s whose \(field.name) is "
            + required.sorted().joined(separator: " or ") + ", and this one's is \(value)"
    }

    /// One action on one item: its command, or why it will not run.
    func plannedAction(_ action: RuleAction, rule: Rule, context: ItemContext, reference: String) -> PlannedAction {
        plannedAction(
            action, definition: registry.action(action.name, for: rule.kind),
            needs: registry.mask(action.needs(for: rule.kind, registry: registry)), rule: rule, context: context,
            reference: reference)
    }

    /// One action on one item, its plugin's definition and its needs (as bits) already looked up;
    /// with `command`, the command in a comment it answers, whose arguments its templates may name.
    func plannedAction(
        _ action: RuleAction, definition: ActionDefinition?, needs: ReadNeed.Mask, rule: Rule, context: ItemContext,
        reference: String, command: PlannedCommand? = nil
    ) -> PlannedAction {
        guard let definition else {
            return PlannedAction(action: action.name, status: .invalid, note: "no plugin offers this action")
        }
        // Only the read planner leaves an action's needs unread (its definition's, or a field its
        // template prints), and only for an entry a guard holds back whatever the action would
        // say; held is also the safe answer to anything else.
        guard context.knows(needs) else {
            return PlannedAction(action: action.name, status: .held, note: Self.unreadNote)
        }
        let request = ActionRequest(
            argument: argument(action.argument, context: context, kind: rule.kind, command: command), rule: rule.name,
            marker: Self.marker(rule: rule.name, item: reference, command: command?.comment), command: command)
        switch definition.verdict(request, context) {
        case .refused(let reason):
            return PlannedAction(action: action.name, status: .refused, note: reason, argument: request.argument)
        case .done:
            return PlannedAction(action: action.name, status: .alreadyDone, argument: request.argument)
        case .waiting(let reason):
            return PlannedAction(action: action.name, status: .waiting, note: reason, argument: request.argument)
        case .due:
            break
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

    /// The argument with templates expanded from the item's fields (and `command`'s arguments)
    /// and `@me` resolved.
    func argument(
        _ argument: RuleAction.Argument, context: ItemContext, kind: ItemKind, command: PlannedCommand? = nil
    ) -> ActionArgument {
        switch argument {
        case .none:
            return .none
        case .names(let names) where command == nil:
            return .names(names.map { $0 == "@me" ? context.me : $0 })
        case .names(let names):
            return .names(
                names.flatMap { name -> [String] in
                    if name == "@me" { return [context.me] }
                    guard let command, let parameter = CommandValues.parameter(placedBy: name) else { return [name] }
                    // `/assign me`: the person who gave the command.
                    return (command.arguments[parameter] ?? []).map { $0 == "me" ? command.author : $0 }
                })
        case .milestone(let title):
            return .milestone(title)
        case .template(let template):
            return .text(render(template, context: context, kind: kind, command: command))
        case .parameters(let templates):
            return .parameters(templates.mapValues { render($0, context: context, kind: kind, command: command) })
        }
    }

    /// A template with each placeholder filled from the item's field as people read it
    /// (``FieldValue/spoken``: durations in words), or from `command`; an unread or absent value
    /// is empty.
    private func render(_ template: Template, context: ItemContext, kind: ItemKind, command: PlannedCommand?) -> String
    {
        template.render { name in
            if let command, let value = CommandValues.value(of: name, in: command) { return value }
            guard let field = registry.field(name, for: kind), context.knows(field.needs) else { return "" }
            let value = field.value(context)
            return value.isAbsent ? "" : value.spoken
        }
    }

    /// The tripwire and the rule's own limit, on the rule's entries in `range`; answers the
    /// tripwire's note when it holds the rule back.
    private func holdBeyondGuards(
        _ rule: Rule, summary: Plan.RuleSummary, entries: inout [PlanEntry], range: Range<Int>,
        guards: inout [String]
    ) -> String? {
        // A refusal is not the rule acting: it has a budget of its own (``limitReplies``).
        let actingEntries = entries.indices(in: range) { $0.hasPendingActions && !$0.isRefusal }
        let acting = actingEntries.count
        if options.trips(acting: acting, considered: summary.considered, rule: rule) {
            let counted = options.counted(acting: acting, rule: rule)
            let share = options.share(acting: counted, considered: summary.considered)
            let limit = Int(options.tripwireShare * 100)
            // "25%, more than 25%" reads as a contradiction: a share that rounds to the limit gets a decimal.
            let whole = Int((share * 100).rounded())
            let percent = whole > limit ? "\(whole)" : String(format: "%.1f", share * 100)
            let note =
                "tripwire: rule '\(rule.name)' would act on \(counted) of \(summary.considered) \(rule.kind.rawValue) "
                + "(\(percent)%, more than \(limit)%); check the rule, then use --force-rule \(rule.name)"
            guards.append(note)
            for index in range where !entries[index].isRefusal {
                entries[index].hold(note: note)
            }
            return note
        }
        if let limit = rule.limit, acting > limit {
            let note = "rule '\(rule.name)' limit of \(limit) reached"
            for index in actingEntries.dropFirst(limit) {
                entries[index].hold(note: note)
            }
            guards.append("\(note): \(acting - limit) more \(rule.kind.rawValue) left for the next run")
        }
        return nil
    }

    /// The run-wide cap on commands, unit by unit (an entry, or a comment's whole answer): a
    /// unit's actions run together or not at all.
    ///
    /// Splitting an entry would leave it half done with nothing to finish it: its first action
    /// (a label, say) changes what its conditions see, so the rule no longer matches on the next
    /// run and the rest (the notice) would never be sent; splitting a comment's answer would send
    /// its 👍 over a command not done. Units are taken in plan order, and the first one that does
    /// not fit in what is left holds back every later one, so the next run resumes exactly there;
    /// a unit needing more commands than the whole cap could never fit, so it alone is held,
    /// saying so, and the run goes on past it. Replies to refused commands are not counted: they
    /// have their own budget (``limitReplies(_:answers:)``).
    private func capActions(_ entries: inout [PlanEntry], answers: [CommentAnswer], guards: inout [String]) {
        var sent = 0
        var full = false
        var heldCommands = 0
        var oversized: [Int: Int] = [:]
        let note = Self.capNote(maxActions: options.maxActions, reserved: options.reserved)
        /// Takes or holds the entries at `indices`, which send `commands` between them; `entries`
        /// is passed in, not captured, since an entry read through a captured array is copied whole.
        func cap(_ indices: some Collection<Int>, commands: Int, in entries: inout [PlanEntry]) {
            guard commands > 0 else { return }
            if options.exceedsCap(commands) {
                for index in indices {
                    entries[index].hold(
                        note:
                            "needs \(commands) commands, more than --max-actions \(options.maxActions) allows in one run"
                    )
                }
                oversized[commands, default: 0] += 1
            } else if full || sent + commands > options.budget {
                full = true
                for index in indices {
                    entries[index].hold(note: note)
                }
                heldCommands += commands
            } else {
                sent += commands
            }
        }
        var answerAt: [Int: [Int]] = [:]
        for answer in answers {
            answerAt[answer.entries[0]] = answer.entries
        }
        // Each entry's commands (none for a refusal), read in place: read through
        // `entries[index]`, every entry was copied.
        let pending = entries.mapInPlace { $0.isRefusal ? 0 : $0.pendingCommandCount }
        let answering = entries.mapInPlace { $0.answersCommand }
        for index in entries.indices {
            if !answering[index] {
                cap(CollectionOfOne(index), commands: pending[index], in: &entries)
            } else if let answer = answerAt[index] {
                cap(answer, commands: answer.reduce(0) { $0 + pending[$1] }, in: &entries)
            }
        }
        if heldCommands > 0 {
            guards.append("\(note): \(heldCommands) more commands left for the next run")
        }
        for (commands, count) in oversized.sorted(by: { $0.key < $1.key }) {
            guards.append(
                "--max-actions \(options.maxActions): \(count) \(count == 1 ? "entry needs" : "entries need") "
                    + "\(commands) commands each, more than one run may send; raise --max-actions to let "
                    + "\(count == 1 ? "it" : "them") run")
        }
    }

    /// The note on an action `--max-actions` held: what ``FreedSlots`` tells such actions by.
    static func capNote(maxActions: Int, reserved: Int) -> String {
        "--max-actions \(maxActions) reached"
            + (reserved > 0 ? " (\(reserved) kept for what an earlier run left half done)" : "")
    }

    /// Whether `note` is one ``capNote(maxActions:reserved:)`` wrote.
    static func isCapNote(_ note: String?) -> Bool {
        guard let note, note.hasPrefix("--max-actions ") else { return false }
        return note.dropFirst("--max-actions ".count).drop(while: \.isNumber).hasPrefix(" reached")
    }

    /// Sends at most ``EvaluationOptions/repliesPerRun`` answers that only refuse, in plan order.
    ///
    /// The rest wait for the next run, which a note says (not a guard: nothing the rules asked for
    /// is held, so the run is not incomplete). Answers the notes.
    private func limitReplies(_ entries: inout [PlanEntry], answers: [CommentAnswer]) -> [String] {
        var replies = 0
        var waiting = 0
        for answer in answers {
            guard answer.entries.allSatisfy({ entries[$0].isRefusal }),
                answer.entries.contains(where: { entries[$0].hasPendingActions })
            else { continue }
            replies += 1
            guard replies > options.repliesPerRun else { continue }
            waiting += 1
            for index in answer.entries {
                entries[index].actions.removeAll { $0.status == .pending }
            }
        }
        guard waiting > 0 else { return [] }
        return [
            "\(waiting) refused \(waiting == 1 ? "comment waits" : "comments wait") for a reply: at most "
                + "\(options.repliesPerRun) a run"
        ]
    }
}
