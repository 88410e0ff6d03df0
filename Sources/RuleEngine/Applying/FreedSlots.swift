import GitbayKit
import Synchronization

/// The `--max-actions` slots a run's re-checks leave unused, and the units the cap held that take
/// them, in the same run.
///
/// The cap is judged on the plan, but `apply` re-reads each item before it writes and sends
/// nothing for one already done or no longer matching. Those commands were counted all the same,
/// so a run whose plan held copies of its own earlier work (40 of 50 slots at 100 repositories)
/// sent 10 commands and left 991 held. A command not sent frees its slot; a unit the cap held
/// (an entry, or a comment's whole answer: ``PlanUnit``) takes freed slots when all of its
/// commands fit, in plan order, and the first that does not fit holds back every later one, as
/// the cap itself does, so the next run resumes exactly there.
struct FreedSlots {
    /// Slots freed and not yet taken.
    private(set) var free = 0
    /// Whether a held unit did not fit: no later one is taken.
    private var closed = false

    /// The commands `unit` will send (refusals have their own budget, as in the cap).
    private static func commands(of unit: PlanUnit, in entries: [PlanEntry]) -> Int {
        unit.entries.reduce(0) { $0 + (entries[$1].isRefusal ? 0 : entries[$1].pendingCommandCount) }
    }

    /// Makes `unit` pending when the cap held it and its commands fit in the slots freed so far;
    /// answers the commands it will count against them (none for a unit the cap did not hold).
    mutating func release(_ unit: PlanUnit, in entries: inout [PlanEntry]) -> Int {
        let capped = unit.entries.contains { index in
            entries[index].actions.contains { $0.status == .held && Evaluator.isCapNote($0.note) }
        }
        guard capped, !closed else { return Self.commands(of: unit, in: entries) }
        var released = entries
        for index in unit.entries {
            for action in released[index].actions.indices
            where released[index].actions[action].status == .held
                && Evaluator.isCapNote(released[index].actions[action].note)
            {
                released[index].actions[action].status = .pending
                released[index].actions[action].note = nil
            }
        }
        let commands = Self.commands(of: unit, in: released)
        guard commands <= free else {
            closed = true
            return 0
        }
        free -= commands
        entries = released
        return commands
    }

    /// Frees the slots of the `planned` commands of a unit that were not sent (`sent` went out).
    mutating func settle(planned: Int, sent: Int) {
        free += max(0, planned - sent)
    }
}

/// A writer that counts the writes it passes on, so the applier knows how many commands a unit
/// sent whatever became of them (``FreedSlots``).
final class CountingWriter: ForgeWriter {
    private let writer: any ForgeWriter
    private let sent = Mutex(0)

    init(_ writer: any ForgeWriter) {
        self.writer = writer
    }

    /// The writes passed on so far.
    var count: Int { sent.withLock { $0 } }

    func write(_ command: ControlCommand) async throws(ForgeFailure) {
        sent.withLock { $0 += 1 }
        try await writer.write(command)
    }
}
