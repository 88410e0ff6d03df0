import Foundation
import GitbayKit

extension Applier {
    /// Finishes an action a previous run left undone, unless someone else has touched the item
    /// since, in which case the rules decide afresh on this and later runs; `nil` for an item no
    /// declared kind's form reads.
    func finish(
        _ action: UnfinishedAction, refresher: inout ItemRefresher, writer: any ForgeWriter,
        journal: (any ApplyJournal)?, run: String, now: @Sendable () -> Date,
        report: inout ApplyReport
    ) async -> ApplyOutcome? {
        // An item no plugin's form reads (its kind's plugin is gone) is left alone, as before.
        guard let reference = registry.reference(parsing: action.item) else { return nil }
        let item = PlannedItem(
            repository: reference.repository.description, kind: reference.kind, number: reference.number,
            title: "", reference: action.item)
        let entry = PlanEntry(rule: action.rule, item: item, reasons: [], actions: [], precondition: .all([]))
        let planned = PlannedAction(
            action: action.action, status: .pending, command: action.command, argument: action.argument)
        let context: ItemContext
        do {
            guard let fresh = try await refresher.context(for: entry, now: now()) else {
                return outcome(entry, planned, .skipped, "unfinished from an earlier run, and the item is gone")
            }
            context = fresh
        } catch {
            Self.noteHalt(error, in: &report)
            return outcome(entry, planned, .failed, "unfinished from an earlier run; could not re-read: \(error)")
        }
        if registry.reading(of: context.item.kind)?.othersActed(in: context, since: action.since) ?? false {
            return outcome(
                entry, planned, .skipped, "unfinished from an earlier run, but others have acted on the item since")
        }
        var result = await apply(
            planned, of: entry, context: context, refresher: &refresher, writer: writer, journal: journal, run: run,
            now: now, report: &report)
        if result.status == .alreadyDone {
            // Settle it in the journal, or every later run would look at it again.
            for phase in [JournalEntry.Phase.intent, .result] {
                let settled = await Self.record(
                    JournalEntry(
                        at: now(), run: run, phase: phase, rule: action.rule, item: action.item,
                        action: action.action, argv: action.command.argv,
                        outcome: phase == .result ? "already-done" : nil, stdin: action.command.stdin,
                        argument: action.argument),
                    in: journal, report: &report)
                guard settled else { break }
            }
        }
        result.detail = ["finishing what an earlier run started", result.detail].compactMap { $0 }
            .joined(separator: "; ")
        return result
    }
}
