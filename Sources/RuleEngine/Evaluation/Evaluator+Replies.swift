import Foundation
import GitbayKit

extension Evaluator {
    /// How long one reply to a person on an item stands for every refusal of theirs there: one
    /// reply a person a day an item, so giving commands one may not give costs the bot one write.
    static let replyPeriod: TimeInterval = 86_400

    /// The reply that answers `command` with `text`, under the marker of `command` for `rule`
    /// (`markers` adds the markers of other rules the same reply answers).
    ///
    /// With `waiting`, the reply says what the command waits for and answers nothing: its marker
    /// (``waitingMarker(rule:item:command:)``) keeps the giver from being told twice while the
    /// command stays open.
    func reply(
        _ text: String, rule: String, context: ItemContext, reference: String, command: PlannedCommand,
        markers: [String] = [], waiting: Bool = false
    ) -> PlannedAction {
        let kind = context.item.kind
        guard let commented = registry.commented(kind), let definition = registry.action(commented.reply, for: kind)
        else { return PlannedAction(action: "reply", status: .invalid, note: "no plugin offers replies") }
        let own =
            waiting
            ? Self.waitingMarker(rule: rule, item: reference, command: command.comment)
            : Self.marker(rule: rule, item: reference, command: command.comment)
        let marker = ([own] + markers).joined(separator: "\n")
        guard context.knows(definition.needs) else {
            return PlannedAction(action: definition.name, status: .held, note: Self.unreadNote)
        }
        let request = ActionRequest(argument: .text(text), rule: rule, marker: marker, command: command)
        switch definition.verdict(request, context) {
        case .refused(let reason):
            return PlannedAction(action: definition.name, status: .refused, note: reason, argument: request.argument)
        case .done:
            return PlannedAction(action: definition.name, status: .alreadyDone, argument: request.argument)
        case .waiting, .due:
            break
        }
        do {
            return PlannedAction(
                action: definition.name, status: .pending, command: try definition.command(request, context),
                argument: request.argument)
        } catch {
            return PlannedAction(
                action: definition.name, status: .invalid, note: "\(error)", argument: request.argument)
        }
    }

    /// The marker of the bot's reply telling the giver of `command` what it waits for: not the
    /// command's own marker (``marker(rule:item:command:)`` is no part of it), which would answer it.
    static func waitingMarker(rule: String, item reference: String, command: Int) -> String {
        "\(markerPrefix)\(rule) item=\(reference) command=\(command) waits -->"
    }

    /// When the bot last told `author` on the item of `context` why a command was not done, if
    /// that was within ``replyPeriod`` of `date` (the refused comment's time); `nil` otherwise.
    ///
    /// Read from the bot's own replies on the server (their marker and the `@author:` they open
    /// with), so a lost state database still keeps the budget, and every run decides alike.
    func toldRecently(_ author: String, at date: Date, context: ItemContext) -> String? {
        guard let commented = registry.commented(context.item.kind) else { return nil }
        let opening = "@\(author): "
        let told = commented.comments(of: context.item).last { comment in
            comment.author == context.me && !comment.isSystem
                && abs(comment.createdAt.timeIntervalSince(date))
                    < Self.replyPeriod
                && comment.body.hasPrefix(opening) && comment.body.contains(" command=")
                && comment.body.contains(Self.markerPrefix)
        }
        return told.map { $0.createdAt.formatted(.iso8601) }
    }

    /// Makes the refusals of one comment a single reply: the first refused entry of the comment
    /// says every command of it that was not done and carries every refused rule's marker (so each
    /// rule reads its command answered); the others send nothing of their own.
    ///
    /// - Parameter entries: the command entries of one item, every rule's.
    func joinReplies(_ entries: inout [PlanEntry], context: ItemContext) {
        var byComment: [Int: [Int]] = [:]
        for index in entries.indices where entries[index].isRefusal && entries[index].hasPendingActions {
            guard let comment = entries[index].command?.comment else { continue }
            byComment[comment, default: []].append(index)
        }
        for indices in byComment.values where indices.count > 1 {
            let first = entries[indices[0]]
            guard let command = first.command else { continue }
            let lines = indices.compactMap { index in
                entries[index].command.map { "- `\($0.text)`: \($0.refusal ?? "refused")" }
            }
            let text = "@\(command.author): these commands were not done:\n" + lines.joined(separator: "\n")
            let markers = Self.otherMarkers(of: indices, in: entries)
            entries[indices[0]].actions = [
                reply(
                    text, rule: first.rule, context: context, reference: first.item.reference, command: command,
                    markers: markers)
            ]
            for index in indices.dropFirst() {
                entries[index].actions = []
            }
        }
    }

    /// The entries of every command rule in `rules` on the item of `context`, by rule name: each
    /// rule's own (``commandEntries(_:context:)``), with the refusals of each comment joined into
    /// one reply.
    func commandAnswers(_ rules: [Rule], context: ItemContext) -> [String: [PlanEntry]] {
        var entries = rules.flatMap { commandEntries($0, context: context) }
        answerRefusalsBesideActions(&entries, context: context)
        refuseCrowdedComments(&entries, context: context)
        joinReplies(&entries, context: context)
        return Dictionary(grouping: entries, by: \.rule)
    }

    /// Replies to every refusal of a comment whose other commands are carried out.
    ///
    /// Even when its giver was told on the item within the day: that comment gets a 👍, which
    /// without the reply would read as every command of it done. The reply budget is for
    /// comments that are refused whole, where silence misleads nobody.
    ///
    /// A refusal entry with no action is one the budget silenced (``commandEntries(_:context:)``);
    /// it is given its reply back here, before the refusals of a comment are joined.
    func answerRefusalsBesideActions(_ entries: inout [PlanEntry], context: ItemContext) {
        let acting = Set(entries.filter { !$0.isRefusal && !$0.actions.isEmpty }.compactMap(\.command?.comment))
        for index in entries.indices where entries[index].isRefusal && entries[index].actions.isEmpty {
            guard let command = entries[index].command, let reason = command.refusal,
                acting.contains(command.comment)
            else { continue }
            entries[index].reasons[0].observed = "\(command.summary); not done: \(reason)"
            entries[index].actions = [
                reply(
                    "@\(command.author): `\(command.text)` was not done: \(reason).", rule: entries[index].rule,
                    context: context, reference: entries[index].item.reference, command: command)
            ]
        }
    }

    /// Refuses every command of a comment that gives more than
    /// ``EvaluationOptions/commandsPerComment`` to carry out, with one reply: such an answer
    /// could outgrow a run's `--max-actions` and wait for ever, and half of it would be a 👍 over
    /// commands not done.
    func refuseCrowdedComments(_ entries: inout [PlanEntry], context: ItemContext) {
        var byComment: [Int: [Int]] = [:]
        for index in entries.indices where !entries[index].isRefusal {
            guard let comment = entries[index].command?.comment else { continue }
            byComment[comment, default: []].append(index)
        }
        for indices in byComment.values where indices.count > options.commandsPerComment {
            let all = entries.indices.filter { entries[$0].command?.comment == entries[indices[0]].command?.comment }
            let reason =
                "the comment gives \(indices.count) commands, more than the \(options.commandsPerComment) the bot "
                + "takes from one comment"
            for index in all {
                let given = entries[index].command?.refusal
                entries[index].command?.refusal = given ?? reason
                entries[index].reasons[0].holds = false
                entries[index].actions = []
            }
            let first = entries[all[0]]
            guard let command = first.command else { continue }
            let markers = Self.otherMarkers(of: all, in: entries)
            entries[all[0]].actions = [
                reply(
                    "@\(command.author): none of the \(all.count) commands of this comment was done: \(reason).",
                    rule: first.rule, context: context, reference: first.item.reference, command: command,
                    markers: markers)
            ]
        }
    }

    /// A note for each command that waits (a `/merge` whose gates do not pass): the bot's own
    /// queue, which the plan, the run's output and the status page show.
    func waitingCommands(in entries: [PlanEntry]) -> [String] {
        entries.indices.compactMap { entries[$0].answersCommand ? entries[$0].waitingNote : nil }
    }

    /// The markers of the entries at `indices` other than the first's: one reply answering them
    /// all carries them, so each rule reads its command answered.
    static func otherMarkers(of indices: [Int], in entries: [PlanEntry]) -> [String] {
        guard let first = indices.first else { return [] }
        return Set(indices.dropFirst().map { entries[$0].marker }).subtracting([entries[first].marker]).sorted()
    }
}
