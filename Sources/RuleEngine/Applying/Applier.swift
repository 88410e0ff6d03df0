import Foundation
import GitbayKit

/// Applies a plan: for each entry, re-reads the item, re-checks the rule's conditions (and that a
/// command's comment still gives it), skips what is already done, sends the planned commands in
/// order and journals each one.
///
/// A failed write does not stop the others, unless the server turned the token away or cannot be
/// reached: then nothing later can succeed, and the rest is reported as not run. A write whose
/// outcome is unknown (the reply was lost) is never sent again blindly: the item is re-read and the
/// action counted done only if it shows.
///
/// Commands a re-check leaves unsent free their `--max-actions` slots for the entries the cap
/// held, in plan order and whole (``FreedSlots``), so work the plan counted twice (done since it
/// was made) does not starve the rest.
public struct Applier: Sendable {
    public let registry: PluginRegistry

    public init(registry: PluginRegistry) {
        self.registry = registry
    }

    /// Applies `plan`; `unfinished` (from the journal) are finished first.
    ///
    /// Cancelling the task stops it cleanly: the write in flight finishes and its result is
    /// recorded (a write cut off halfway would leave its outcome unknown; the writer carries it to
    /// its end), a write still waiting to go out (for the write budget, a `Retry-After`, a
    /// backoff) is not sent and is recorded so, nothing is sent after, and the report says it
    /// was interrupted, even when the stop came during the last write.
    ///
    /// A rule's schedule is checked again before each of its entries, at `scheduleNow`: a plan
    /// made inside the window but applied outside it holds the entry, naming the next opening.
    ///
    /// - Parameters:
    ///   - run: this run's id in the journal.
    ///   - scheduleNow: the clock schedules are checked at; the real one, or `run --now`'s instant.
    ///   - activity: who did what to the items, weighed by each re-check as the plan weighed it.
    ///   - facts: repository facts shared with the runs that send the rest of the same plan.
    public func apply(
        _ plan: Plan, unfinished: [UnfinishedAction] = [], reader: any ForgeReader, writer: any ForgeWriter,
        journal: (any ApplyJournal)?, run: String = UUID().uuidString, now: @Sendable () -> Date = { Date() },
        scheduleNow: @Sendable () -> Date = { Date() }, activity: ActivityHistory? = nil,
        facts: RepositoryFacts? = nil, progress: @escaping @Sendable (ApplyOutcome) -> Void = { _ in }
    ) async -> ApplyReport {
        var report = ApplyReport()
        func append(_ outcome: ApplyOutcome) {
            report.outcomes.append(outcome)
            progress(outcome)
        }
        var refresher = ItemRefresher(
            registry: registry, reader: reader, me: plan.me, automation: Set(plan.automation ?? []),
            activity: activity, facts: facts)
        for action in unfinished
        where !plan.entries.contains(where: {
            $0.rule == action.rule && $0.item.reference == action.item
        }) {
            if Task.isCancelled {
                report.interrupted = true
                break
            }
            if report.haltReason != nil { break }
            let finished = await finish(
                action, refresher: &refresher, writer: writer, journal: journal, run: run, now: now,
                report: &report)
            if let finished { append(finished) }
        }
        var schedules: [String: Schedule] = [:]
        for rule in plan.rules {
            schedules[rule.name] = rule.schedule
        }
        // A unit is an entry, or every entry answering one comment (``CommentAnswer``), sent in
        // one go: the comment's acknowledgement, in its last entry, goes out only when every
        // command before it is done or answered.
        // What a re-check leaves unsent frees its slots for the units the cap held (``FreedSlots``).
        let writer = CountingWriter(writer)
        var entries = plan.entries
        var slots = FreedSlots()
        for unit in PlanUnit.all(in: plan.entries) {
            let planned =
                report.haltReason == nil && !Task.isCancelled ? slots.release(unit, in: &entries) : 0
            let sent = writer.count
            defer { slots.settle(planned: planned, sent: writer.count - sent) }
            var unanswered = false
            for index in unit.entries {
                let entry = entries[index]
                let start = report.outcomes.count
                var replied = false
                defer {
                    if entry.command != nil {
                        let outcomes = report.outcomes[start...]
                        if !replied
                            && (entry.hasHeldActions
                                || !outcomes.allSatisfy { $0.status == .applied || $0.status == .alreadyDone })
                        {
                            unanswered = true
                        }
                    }
                }
                // Outside its rule's schedule now, the entry waits, whatever held it when planning.
                if let note = schedules[entry.rule]?.heldNote(at: scheduleNow()) {
                    for action in entry.actions where action.status == .pending || action.status == .held {
                        append(outcome(entry, action, .waiting, note))
                    }
                    continue
                }
                let held = entry.actions.filter { $0.status == .held }
                for action in held {
                    append(outcome(entry, action, .held, action.note))
                }
                guard entry.hasPendingActions else { continue }
                if report.haltReason == nil && Task.isCancelled { report.interrupted = true }
                if let reason = report.haltReason {
                    for action in entry.actions where action.status == .pending {
                        append(outcome(entry, action, .notRun, reason))
                    }
                    continue
                }
                let context: ItemContext
                do {
                    guard let fresh = try await refresher.context(for: entry, now: now()) else {
                        skipAll(entry, "the item is gone").forEach(append)
                        continue
                    }
                    context = fresh
                } catch {
                    if Task.isCancelled {
                        report.interrupted = true
                        entry.actions.filter { $0.status == .pending }
                            .map { outcome(entry, $0, .notRun, report.haltReason) }.forEach(append)
                        continue
                    }
                    Self.noteHalt(error, in: &report)
                    failAll(entry, "could not re-read the item: \(error)").forEach(append)
                    continue
                }
                if let withdrawn = CommentAnswer.withdrawal(of: entry, in: context, registry: registry) {
                    skipAll(entry, withdrawn).forEach(append)
                    continue
                }
                let (holds, failing) = entry.precondition.check(context, registry: registry)
                guard holds == true else {
                    let reason =
                        holds == false
                        ? "no longer matches: \(failing ?? "a condition fails")" : "could not re-check the conditions"
                    skipAll(entry, reason).forEach(append)
                    continue
                }
                await recordPlan(of: entry, journal: journal, run: run, at: now(), report: &report)
                // A command is answered whole: after a failure nothing more of it is sent, least of all
                // its acknowledgement.
                var failure: ApplyOutcome?
                for action in entry.actions where action.status == .pending {
                    if report.haltReason == nil && Task.isCancelled { report.interrupted = true }
                    if let reason = report.haltReason {
                        append(outcome(entry, action, .notRun, reason))
                        continue
                    }
                    if let failure {
                        let what = failure.status == .skipped ? "was refused on a fresh read" : "failed"
                        append(outcome(entry, action, .skipped, "not sent: \(failure.action) \(what)"))
                        continue
                    }
                    if unanswered, registry.isAcknowledgement(action, of: entry) {
                        append(outcome(entry, action, .skipped, "not sent: another command of the comment is not done"))
                        continue
                    }
                    let applied = await apply(
                        action, of: entry, context: context, refresher: &refresher, writer: writer,
                        journal: journal, run: run, now: now, report: &report)
                    append(applied)
                    // An entry is one unit: after an action failed (its outcome perhaps unknown: the
                    // label may or may not be on), the rest of it waits for the next run, which judges
                    // again from what is there; a notice is never posted over a label that did not
                    // land. A command refused on the fresh read (a head pushed since `/merge`) is not
                    // done either.
                    if applied.status == .failed || (entry.command != nil && applied.status == .skipped) {
                        failure = applied
                    }
                }
                if let failure, failure.refused, report.haltReason == nil,
                    let reply = await replyToRefusal(
                        failure, of: entry, context: context, refresher: &refresher, writer: writer, journal: journal,
                        run: run, now: now, report: &report)
                {
                    append(reply)
                    replied = reply.status == .applied || reply.status == .alreadyDone
                }
            }
        }
        if Task.isCancelled { report.interrupted = true }
        return report
    }

    func apply(
        _ action: PlannedAction, of entry: PlanEntry, context: ItemContext, refresher: inout ItemRefresher,
        writer: any ForgeWriter, journal: (any ApplyJournal)?, run: String, now: @Sendable () -> Date,
        report: inout ApplyReport
    ) async -> ApplyOutcome {
        guard let command = action.command, let definition = registry.action(action.action, for: entry.item.kind)
        else {
            return outcome(entry, action, .failed, "the plan names no command for this action")
        }
        let request = ActionRequest(
            argument: action.argument ?? .none, rule: entry.rule, marker: entry.marker, command: entry.command)
        switch definition.verdict(request, context) {
        case .refused(let reason): return outcome(entry, action, .skipped, reason)
        case .done: return outcome(entry, action, .alreadyDone, "already so on a fresh read")
        case .waiting(let reason): return outcome(entry, action, .waiting, "not yet on a fresh read: \(reason)")
        case .due: break
        }
        if let moved = Self.moved(command, definition: definition, request: request, context: context) {
            return outcome(entry, action, .skipped, moved)
        }
        func record(_ phase: JournalEntry.Phase, _ result: String?, _ detail: String?) async -> Bool {
            await Self.record(
                JournalEntry(
                    at: now(), run: run, phase: phase, rule: entry.rule, item: entry.item.reference,
                    action: action.action, argv: command.argv, outcome: result, detail: detail, stdin: command.stdin,
                    argument: action.argument, reasons: phase == .intent ? entry.reasons : nil),
                in: journal, report: &report)
        }
        guard await record(.intent, nil, nil) else {
            return outcome(entry, action, .notRun, report.haltReason)
        }
        do {
            try await writer.write(command)
            guard await record(.result, "applied", nil) else {
                return outcome(entry, action, .applied, Self.unrecorded(report))
            }
            return outcome(entry, action, .applied)
        } catch  where error.kind == .stopped {
            // Stopped before it went out, so not applied: nothing to re-read or to try again, and
            // the journal says it was not sent (history's not-sent).
            report.interrupted = true
            let recorded = await record(.result, "not-sent", error.description)
            return outcome(
                entry, action, .notRun,
                ["stopped before it was sent", recorded ? nil : Self.unrecorded(report)].compactMap(\.self)
                    .joined(separator: "; "))
        } catch {
            // Someone got there first ("already closed", a finished build), or the reply was lost:
            // a fresh read decides.
            refresher.forget(entry.item.repository)
            if let fresh = try? await refresher.context(for: entry, now: now()),
                definition.isDone(request, fresh)
            {
                let recorded = await record(.result, "already-done", error.description)
                return outcome(
                    entry, action, .alreadyDone,
                    ["done on a fresh read after: \(error.message)", recorded ? nil : Self.unrecorded(report)]
                        .compactMap(\.self).joined(separator: "; "))
            }
            // A command's action gitbay refuses is answered with a reply, never tried again: its
            // entry is settled, so no later run finishes the rest of it.
            let refused = entry.command != nil && error.isRefusal
            let recorded = await record(
                .result, refused ? JournalEntry.refusedOutcome : "failed", error.description)
            Self.noteHalt(error, in: &report)
            var failure = outcome(
                entry, action, .failed,
                [error.description, recorded ? nil : Self.unrecorded(report)].compactMap(\.self)
                    .joined(separator: "; "))
            failure.retryLater = error.retryLater
            failure.refused = error.isRefusal
            return failure
        }
    }

    /// Why the planned `command` must not be sent: the fresh read builds another from the same
    /// request (a merge request's head moved since the plan, so a status would land on a commit
    /// nobody judged); `nil` when it builds the same.
    ///
    /// The request's argument is the plan's, its templates already written, so only what the
    /// command reads from the forge can differ, and that goes in the argv (a head, a number); the
    /// standard input is the plan's text, which the plan may have worded afresh (a waiting
    /// command's reply), so it is not compared. The plan's command is what a person reviewed and
    /// the re-check judged, so a different one is refused rather than sent in its place: nothing
    /// goes out, and the next run plans it again from what it reads then.
    static func moved(
        _ command: ControlCommand, definition: ActionDefinition, request: ActionRequest, context: ItemContext
    ) -> String? {
        let rebuilt: ControlCommand
        do {
            rebuilt = try definition.command(request, context)
        } catch {
            return "not sent: a fresh read cannot build the command (\(error)); the next run plans it again"
        }
        guard rebuilt.argv != command.argv else { return nil }
        return "not sent: the item moved since the plan: it planned `\(command.argv.joined(separator: " "))`, "
            + "a fresh read gives `\(rebuilt.argv.joined(separator: " "))`; the next run plans it again"
    }

    /// Tells the person whose command gitbay refused (a merge gate, an expiring token) why, once:
    /// the reply carries the command's marker, so no later run tries it again; a failure worth
    /// retrying (the network, a server error) gets no reply, and the command waits for the next run.
    private func replyToRefusal(
        _ failure: ApplyOutcome, of entry: PlanEntry, context: ItemContext, refresher: inout ItemRefresher,
        writer: any ForgeWriter, journal: (any ApplyJournal)?, run: String, now: @Sendable () -> Date,
        report: inout ApplyReport
    ) async -> ApplyOutcome? {
        guard let command = entry.command, let commented = registry.commented(entry.item.kind),
            let definition = registry.action(commented.reply, for: entry.item.kind)
        else { return nil }
        let reason = failure.detail ?? "gitbay refused it"
        let text = "@\(command.author): `\(command.text)` was not done: gitbay refused \(failure.action): \(reason)."
        let request = ActionRequest(argument: .text(text), rule: entry.rule, marker: entry.marker, command: command)
        guard let rendered = try? definition.command(request, context) else { return nil }
        let reply = PlannedAction(action: commented.reply, status: .pending, command: rendered, argument: .text(text))
        return await apply(
            reply, of: entry, context: context, refresher: &refresher, writer: writer, journal: journal, run: run,
            now: now, report: &report)
    }

    /// Records every pending action of a multi-action entry before its first write, so that a run
    /// killed after that write leaves the rest of the entry on record for the next run to finish.
    private func recordPlan(
        of entry: PlanEntry, journal: (any ApplyJournal)?, run: String, at date: Date, report: inout ApplyReport
    ) async {
        let pending = entry.actions.filter { $0.status == .pending && $0.command != nil }
        guard pending.count > 1 else { return }
        for action in pending {
            guard let command = action.command else { continue }
            let recorded = await Self.record(
                JournalEntry(
                    at: date, run: run, phase: .planned, rule: entry.rule, item: entry.item.reference,
                    action: action.action, argv: command.argv, stdin: command.stdin, argument: action.argument),
                in: journal, report: &report)
            guard recorded else { return }
        }
    }

    /// Records `entry` in `journal`; when it cannot, notes why in `report` (which stops every
    /// later write) and answers false.
    static func record(
        _ entry: JournalEntry, in journal: (any ApplyJournal)?, report: inout ApplyReport
    ) async -> Bool {
        guard let journal else { return true }
        do {
            try await journal.record(entry)
            return true
        } catch {
            report.journalFailure = "\(error)"
            return false
        }
    }

    /// The note on a write whose result the journal could not keep: the next run re-reads the
    /// item before deciding, so it is neither lost nor doubled.
    private static func unrecorded(_ report: ApplyReport) -> String {
        "its result could not be recorded (\(report.journalFailure ?? "the journal failed")); the next run "
            + "re-reads the item before deciding"
    }

    /// Notes in `report` a failure after which nothing later can succeed, so nothing more is
    /// sent: the server turning the token away, or the forge out of reach.
    static func noteHalt(_ error: any Error, in report: inout ApplyReport) {
        guard let failure = (error as? any ForgeFailureConvertible)?.forgeFailure else { return }
        switch failure.kind {
        case .tokenRejected: report.tokenRejection = failure.description
        case .unreachable: report.unreachable = failure.description
        case .rateLimited, .busy, .stopped, .denied, .refused, .other: break
        }
    }

    func outcome(
        _ entry: PlanEntry, _ action: PlannedAction, _ status: ApplyOutcome.Status, _ detail: String? = nil
    ) -> ApplyOutcome {
        ApplyOutcome(
            rule: entry.rule, item: entry.item.reference, action: action.action, status: status, detail: detail)
    }

    private func skipAll(_ entry: PlanEntry, _ reason: String) -> [ApplyOutcome] {
        entry.actions.filter { $0.status == .pending }.map { outcome(entry, $0, .skipped, reason) }
    }

    private func failAll(_ entry: PlanEntry, _ reason: String) -> [ApplyOutcome] {
        entry.actions.filter { $0.status == .pending }.map { outcome(entry, $0, .failed, reason) }
    }
}
