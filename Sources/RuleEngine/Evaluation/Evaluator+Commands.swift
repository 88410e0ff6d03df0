import CommentCommands
import Foundation
import GitbayKit
import YAML

extension Evaluator {
    /// A command for a rule in one comment, not yet answered.
    struct OpenCommand {
        let comment: Comment
        let id: Int
        let command: CommentCommand
        /// Whether its name is a slip for the rule's (``CommandTrigger/mistakes(_:)``): it is
        /// answered with a reply that names the command meant, and nothing else.
        var misspelt = false

        /// The command as a plan shows it, before its arguments are taken.
        var planned: PlannedCommand {
            PlannedCommand(
                comment: id, author: comment.author, text: command.text, line: command.line, at: comment.createdAt)
        }
    }

    /// The commands for `rule` in the comments of the item of `context` that no run has answered,
    /// oldest first; `nil` while its comments are not read.
    ///
    /// A command counts when it is written by a person (not the bot, not a `bots:` account), in a
    /// comment with an id (to aim the answer at), no older than the command window, as a line of
    /// its own outside code and quotations (``CommentCommandScanner``). It is answered when the
    /// bot reacted to its comment, when the bot's reply to it carries its marker, or when the
    /// journal holds the bot's acknowledgement of it or its reply that gitbay refused for good: a
    /// lost database still leaves the first two on the server, the third covers a detail read
    /// before the reaction, and the fourth a repository that takes no reply (an archived one).
    func openCommands(for rule: Rule, trigger: CommandTrigger, context: ItemContext) -> [OpenCommand]? {
        guard let commented = registry.commented(rule.kind) else { return [] }
        guard context.knows(commented.commandNeeds) else { return nil }
        let since = context.now.addingTimeInterval(-options.commandWindow)
        let reference = registry.reference(to: context.item, in: context.repository.path)
        let comments = commented.comments(of: context.item)
        let journal = context.repository.activity(of: context.item).filter { $0.source == .journal }
        var open: [OpenCommand] = []
        for comment in comments where !comment.isSystem && comment.createdAt >= since {
            guard let id = comment.id, !context.isAutomation(comment.author) else { continue }
            let markup: CommentMarkup = comment.bodyFormat == .org ? .org : .markdown
            // Every copy counts: `/label bug` and, further down, `/label ui` are two commands. A
            // slip is answered only where the comment does not give the command itself.
            let scanned = CommentCommandScanner.commands(in: comment.body, markup: markup)
            let exact = scanned.filter { $0.name == trigger.pattern.name }
            let given = exact.isEmpty ? scanned.filter { trigger.mistakes($0.name) } : exact
            guard !given.isEmpty else { continue }
            if comment.reactions.contains(where: \.me) { continue }
            let marker = Self.marker(rule: rule.name, item: reference, command: id)
            if comments.contains(where: { MarkedComments.isMarked($0, marker: marker, me: context.me) }) { continue }
            if context.repository.refusedReplies.contains(where: { $0.contains(marker) }) { continue }
            if journal.contains(where: { commented.acknowledges($0.argv ?? [], comment: id) }) { continue }
            for command in given {
                open.append(
                    OpenCommand(
                        comment: comment, id: id, command: command, misspelt: command.name != trigger.pattern.name))
            }
        }
        return open
    }

    /// How a rule with a command fares on one item, for `explain`: matched by each command the plan
    /// answers (its line, giver and arguments first among the reasons, then the conditions as that
    /// command met them, and its actions or its reply), else not matched, saying there is no
    /// unanswered command, or unknown while the comments are not read or a condition is undecided.
    func commandResult(
        _ rule: Rule, trigger: CommandTrigger, inScope: Bool, context: ItemContext, plan: Plan,
        reference: ItemReference
    ) -> Explanation.RuleResult {
        let entries = plan.entries.filter { $0.rule == rule.name && $0.item.reference == reference.description }
        var conditions = entries.flatMap(\.reasons)
        let verdict: Explanation.Verdict
        if !inScope {
            verdict = .notMatched
        } else if !entries.isEmpty {
            verdict = .matched
        } else {
            var results: [ConditionResult] = []
            let holds = rule.condition.evaluate(context, registry: registry, results: &results)
            let open = openCommands(for: rule, trigger: trigger, context: context)
            let observed: String
            switch open {
            case nil: observed = "the comments are not read"
            case let open? where open.isEmpty:
                observed =
                    "none unanswered in people's comments of the last "
                    + DurationLiteral.words(seconds: options.commandWindow)
            case let open?:
                observed =
                    open.map(\.planned.summary).joined(separator: ", ") + ": waits for a condition that is not read"
            }
            let asked = open.map { !$0.isEmpty }
            conditions =
                [
                    ConditionResult(
                        condition: trigger.pattern.usage, field: CommandValues.field, observed: observed,
                        holds: asked == true && holds == nil ? nil : asked, location: rule.location.description)
                ] + results
            verdict = asked == false ? .notMatched : .unknown
        }
        return Explanation.RuleResult(
            name: rule.name, description: rule.description, location: rule.location.description, inScope: inScope,
            verdict: verdict, conditions: conditions, actions: entries.flatMap(\.actions),
            schedule: rule.schedule.map { Explanation.ScheduleResult($0, at: context.now) },
            commands: entries.compactMap(\.command))
    }

    /// Whether `rule` has a command to answer on the item of `context`: its comments are read and
    /// hold one.
    func hasOpenCommands(_ rule: Rule, context: ItemContext) -> Bool {
        guard let trigger = rule.command else { return false }
        return !(openCommands(for: rule, trigger: trigger, context: context) ?? []).isEmpty
    }

    /// The entries of a rule with a command on one item: one per command no run has answered.
    ///
    /// A command its author may not give, whose arguments do not fit, whose rule's conditions fail
    /// or whose action a plugin refuses gets an entry that only replies, saying why; one that
    /// passes gets the rule's actions, its templates filled from the command, and then the
    /// acknowledgement. A condition that cannot be decided yet leaves the command for a later run.
    func commandEntries(_ rule: Rule, context: ItemContext) -> [PlanEntry] {
        guard let trigger = rule.command, let commented = registry.commented(rule.kind),
            let open = openCommands(for: rule, trigger: trigger, context: context)
        else { return [] }
        let reference = registry.reference(to: context.item, in: context.repository.path)
        let item = PlannedItem(
            repository: context.repository.path.description, kind: rule.kind, number: context.item.number,
            title: context.item.title, reference: reference)
        var entries: [PlanEntry] = []
        for found in open {
            var planned = found.planned
            var reasons = [
                ConditionResult(
                    condition: trigger.pattern.usage, field: CommandValues.field, observed: planned.summary,
                    holds: true,
                    location: rule.location.description)
            ]
            /// The entry that tells the giver why the command was not done; with `budgeted` (a
            /// person outside `allowed:`, or arguments that do not fit), nothing is said to
            /// someone told on this item within the day (``toldRecently``): their entry shows the
            /// refusal and sends nothing.
            func refuse(_ reason: String, budgeted: Bool = false) -> PlanEntry {
                planned.refusal = reason
                reasons[0].holds = false
                reasons[0].observed = "\(planned.summary); not done: \(reason)"
                if budgeted, let told = toldRecently(planned.author, at: found.comment.createdAt, context: context) {
                    reasons[0].observed += "; not answered: @\(planned.author) was told on this item at \(told)"
                    return PlanEntry(
                        rule: rule.name, item: item, reasons: reasons, actions: [], precondition: .all([]),
                        command: planned)
                }
                let action = reply(
                    "@\(planned.author): `\(planned.text)` was not done: \(reason).", rule: rule.name, context: context,
                    reference: reference, command: planned)
                return PlanEntry(
                    rule: rule.name, item: item, reasons: reasons, actions: [action], precondition: .all([]),
                    command: planned)
            }
            if found.misspelt {
                entries.append(
                    refuse(
                        "`/\(found.command.name)` is not a command; `/\(trigger.pattern.name)` is", budgeted: true))
                continue
            }
            // Taken before the permission is checked, so a refusal still shows what was asked.
            let arguments = trigger.pattern.arguments(of: found.command)
            if case .success(let taken) = arguments {
                planned.arguments = taken.values
                reasons[0].observed = planned.summary
            }
            if let refusal = permissionRefusal(
                trigger.allowed, author: planned.author, commented: commented, context: context)
            {
                entries.append(refuse(refusal, budgeted: true))
                continue
            }
            if case .failure(let problem) = arguments {
                entries.append(refuse(problem.description, budgeted: true))
                continue
            }
            var results: [ConditionResult] = []
            let holds = rule.condition.evaluate(context, registry: registry, results: &results)
            reasons += results
            guard let holds else { continue }
            guard holds else {
                let failing = results.first { $0.holds == false }
                entries.append(
                    refuse(
                        failing.map { "\($0.condition) does not hold (it is \($0.observed))" } ?? "a condition fails"))
                continue
            }
            var actions = rule.actions.map { action in
                plannedAction(
                    action, definition: registry.action(action.name, for: rule.kind),
                    needs: registry.mask(action.needs(for: rule.kind, registry: registry, command: true)), rule: rule,
                    context: context, reference: reference, command: planned)
            }
            if let refused = actions.first(where: { $0.status == .refused || $0.status == .invalid }) {
                entries.append(refuse("\(refused.action): \(refused.note ?? "refused")"))
                continue
            }
            // Not due yet (a merge whose gates do not pass): the command stays open, unanswered,
            // and the next run judges it afresh, its giver's right included. Its giver is told
            // once what it waits for, under a marker of its own that does not answer it.
            if let waiting = actions.first(where: { $0.status == .waiting }) {
                let text =
                    "@\(planned.author): `\(planned.text)` waits: \(waiting.note ?? "it is not due yet"). The bot "
                    + "carries it out once that changes, judging it again each run: it is refused if the rule no "
                    + "longer holds, if you may no longer give it, or if what it was given on changes."
                actions.append(
                    reply(
                        text, rule: rule.name, context: context, reference: reference, command: planned,
                        waiting: true))
                entries.append(
                    PlanEntry(
                        rule: rule.name, item: item, reasons: reasons, actions: actions,
                        precondition: Precondition(rule.condition), command: planned))
                continue
            }
            let acknowledging = commented.acknowledgement(of: found.id)
            let acknowledgement = RuleAction(
                name: acknowledging.action, argument: .parameters(acknowledging.argument.mapValues(Template.literal)),
                location: rule.location)
            let definition = registry.action(acknowledgement.name, for: rule.kind)
            actions.append(
                plannedAction(
                    acknowledgement, definition: definition, needs: registry.mask(definition?.needs ?? []), rule: rule,
                    context: context, reference: reference, command: planned))
            entries.append(
                PlanEntry(
                    rule: rule.name, item: item, reasons: reasons, actions: actions,
                    precondition: Precondition(rule.condition), command: planned))
        }
        return entries
    }

    /// Why `author` may not give the command, or `nil` when one of `allowed` lets them.
    private func permissionRefusal(
        _ allowed: [CommandPermission], author: String, commented: any CommentedKind, context: ItemContext
    ) -> String? {
        var unknownWriters: String?
        for permission in allowed {
            switch permission {
            case .author:
                if commented.author(of: context.item) == author { return nil }
            case .account(let name):
                if name == author { return nil }
            case .writers:
                guard let writers = context.repository.writers else {
                    unknownWriters = "the bot could not tell who may write to \(context.repository.path)"
                    continue
                }
                if writers.accounts.contains(author) { return nil }
                if case .configured(let reason) = writers.source, writers.accounts.isEmpty {
                    unknownWriters = reason
                }
            }
        }
        let who = allowed.map { permission -> String in
            switch permission {
            case .author: return "the author"
            case .writers: return "those who may write to \(context.repository.path)"
            case .account(let name): return "@\(name)"
            }
        }
        let list =
            who.count > 1 ? who.dropLast().joined(separator: ", ") + " or " + who[who.count - 1] : who.first ?? ""
        return "only \(list) may give it" + (unknownWriters.map { " (\($0))" } ?? "")
    }

    /// Holds what a command still to be answered on the same item may change.
    ///
    /// That is the entries of rules without a command (a merge the `/hold` was meant to stop), and
    /// the answers to older comments (a `/merge` that waited for its checks, given before the
    /// `/hold`). The newest word is answered first and the rest decide again on the next run. A refused command changes
    /// nothing and holds nothing, or anybody could hold the bot's work on any item they may
    /// comment on.
    func waitForCommands(_ entries: inout [PlanEntry]) {
        var newest: [String: PlannedCommand] = [:]
        // By index, commands first: `for entry in entries` would copy each of a large plan's
        // entries, nearly all of rules without a command.
        for index in entries.indices where entries[index].answersCommand && !entries[index].isRefusal {
            guard let command = entries[index].command, entries[index].actions.contains(where: \.isOutstanding)
            else { continue }
            let reference = entries[index].item.reference
            if let known = newest[reference], (known.at, known.comment) >= (command.at, command.comment) {
                continue
            }
            newest[reference] = command
        }
        guard !newest.isEmpty else { return }
        for index in entries.indices where !entries[index].isRefusal {
            guard let asked = newest[entries[index].item.reference] else { continue }
            if let command = entries[index].command, command.comment == asked.comment { continue }
            guard entries[index].actions.contains(where: \.isOutstanding) else { continue }
            let note = "waits until \(asked.summary) is answered, which may change what this rule sees"
            for action in entries[index].actions.indices where entries[index].actions[action].isOutstanding {
                entries[index].actions[action].status = .held
                entries[index].actions[action].note = note
            }
        }
    }
}

extension PlannedAction {
    /// Whether it is still to be done: pending, or waiting for what it needs.
    var isOutstanding: Bool { status == .pending || status == .waiting }
}

extension PluginRegistry {
    /// Whether `action` of `entry` is its command's acknowledgement (the 👍 on the comment).
    func isAcknowledgement(_ action: PlannedAction, of entry: PlanEntry) -> Bool {
        guard let command = entry.command, let argv = action.command?.argv, let commented = commented(entry.item.kind)
        else { return false }
        return commented.acknowledges(argv, comment: command.comment)
    }
}
