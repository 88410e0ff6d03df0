import Foundation
import GitbayClient
import GitbayKit

/// Applies a plan: for each entry, re-reads the item, re-checks the rule's conditions, skips what
/// is already done, sends the planned commands in order and journals each one.
///
/// A failed write does not stop the others. A write whose outcome is unknown (the reply was lost)
/// is never sent again blindly: the item is re-read and the action counted done only if it shows.
public struct Applier: Sendable {
    public let registry: PluginRegistry

    public init(registry: PluginRegistry) {
        self.registry = registry
    }

    public func apply(
        _ plan: Plan, reader: any ForgeReader, writer: any ForgeWriter, journal: (any ApplyJournal)?,
        now: @Sendable () -> Date = { Date() }, shouldStop: @Sendable () -> Bool = { false }
    ) async -> ApplyReport {
        var report = ApplyReport()
        var refresher = ItemRefresher(registry: registry, reader: reader)
        for entry in plan.entries {
            let held = entry.actions.filter { $0.status == .held }
            for action in held {
                report.outcomes.append(outcome(entry, action, .held, action.note))
            }
            guard entry.hasPendingActions else { continue }
            if report.interrupted || shouldStop() {
                report.interrupted = true
                for action in entry.actions where action.status == .pending {
                    report.outcomes.append(outcome(entry, action, .notRun, "interrupted"))
                }
                continue
            }
            let context: ItemContext
            do {
                guard let fresh = try await refresher.context(for: entry, me: plan.me, now: now()) else {
                    skipAll(entry, "the item is gone", into: &report)
                    continue
                }
                context = fresh
            } catch {
                failAll(entry, "could not re-read the item: \(error)", into: &report)
                continue
            }
            let (holds, failing) = entry.precondition.check(context, registry: registry)
            guard holds == true else {
                skipAll(
                    entry,
                    holds == false
                        ? "no longer matches: \(failing ?? "a condition fails")"
                        : "could not re-check the conditions", into: &report)
                continue
            }
            for action in entry.actions where action.status == .pending {
                if report.interrupted || shouldStop() {
                    report.interrupted = true
                    report.outcomes.append(outcome(entry, action, .notRun, "interrupted"))
                    continue
                }
                report.outcomes.append(
                    await apply(
                        action, of: entry, context: context, refresher: &refresher, writer: writer,
                        journal: journal, me: plan.me, now: now))
            }
        }
        return report
    }

    private func apply(
        _ action: PlannedAction, of entry: PlanEntry, context: ItemContext, refresher: inout ItemRefresher,
        writer: any ForgeWriter, journal: (any ApplyJournal)?, me: String, now: @Sendable () -> Date
    ) async -> ApplyOutcome {
        guard let command = action.command, let definition = registry.action(action.action, for: entry.item.kind)
        else {
            return outcome(entry, action, .failed, "the plan names no command for this action")
        }
        let request = ActionRequest(
            argument: action.argument ?? .none, rule: entry.rule,
            marker: Evaluator.marker(rule: entry.rule, item: entry.item.reference))
        if definition.isDone(request, context) {
            return outcome(entry, action, .alreadyDone, "already so on a fresh read")
        }
        if let refusal = definition.refusal(context) {
            return outcome(entry, action, .skipped, refusal)
        }
        func record(_ phase: JournalEntry.Phase, _ result: String?, _ detail: String?) {
            journal?.record(
                JournalEntry(
                    at: now(), phase: phase, rule: entry.rule, item: entry.item.reference, action: action.action,
                    argv: command.argv, outcome: result, detail: detail))
        }
        record(.intent, nil, nil)
        do {
            try await writer.write(command)
            record(.result, "applied", nil)
            return outcome(entry, action, .applied)
        } catch {
            // Someone got there first ("already closed", a finished build), or the reply was lost:
            // a fresh read decides.
            if let fresh = try? await refresher.context(for: entry, me: me, now: now()),
                definition.isDone(request, fresh)
            {
                record(.result, "already-done", error.description)
                return outcome(entry, action, .alreadyDone, "done on a fresh read after: \(error.message)")
            }
            record(.result, "failed", error.description)
            return outcome(entry, action, .failed, error.description)
        }
    }

    private func outcome(
        _ entry: PlanEntry, _ action: PlannedAction, _ status: ApplyOutcome.Status, _ detail: String? = nil
    ) -> ApplyOutcome {
        ApplyOutcome(
            rule: entry.rule, item: entry.item.reference, action: action.action, status: status, detail: detail)
    }

    private func skipAll(_ entry: PlanEntry, _ reason: String, into report: inout ApplyReport) {
        for action in entry.actions where action.status == .pending {
            report.outcomes.append(outcome(entry, action, .skipped, reason))
        }
    }

    private func failAll(_ entry: PlanEntry, _ reason: String, into report: inout ApplyReport) {
        for action in entry.actions where action.status == .pending {
            report.outcomes.append(outcome(entry, action, .failed, reason))
        }
    }
}
