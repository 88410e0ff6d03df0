import Foundation
import GitbayKit
import Synchronization

/// The rolling sweep's bookkeeping for one read: the sweep, the changes the listings showed, the
/// probes' looks taken, and what the read budget read and left.
///
/// The read session makes and keeps it; the ``ReadContext`` the plugins read with holds only a
/// handle, so their sweep calls (``ReadContext/sweep(_:of:entry:format:touches:decode:)``,
/// ``ReadContext/mayRead(_:in:)``, ``ReadContext/saw(_:covering:in:)``) are recorded here, out of
/// their sight, and the session reads what the budget left from its own hands. A class, because
/// the plugins get the context as a value of their own; its state behind a lock, as the context
/// is `Sendable`.
final class SweepLedger: Sendable {
    /// What the sweep has recorded so far.
    private struct Record {
        var sweep: RepositorySweep?
        var skips = false
        var sightings: [FeedEvent] = []
        var looked: Set<String> = []
        var leftToCopies: Set<RepositoryPath> = []
        var leftUnread: Set<RepositoryPath> = []
        var readWithinBudget: Set<RepositoryPath> = []
    }

    /// What the read sends its requests through: counted when there is a budget.
    let reader: any ForgeReader
    /// The most requests the read sends before the sweep's reads no change asks for wait; `nil` sets none.
    let readBudget: Int?
    private let meter: MeteredReader?
    private let record = Mutex(Record())

    /// The bookkeeping of a read through `reader`, bounded by `readBudget` when there is one.
    init(reader: any ForgeReader, readBudget: Int? = nil) {
        self.readBudget = readBudget
        if readBudget != nil {
            let meter = MeteredReader(reader)
            self.meter = meter
            self.reader = meter
        } else {
            self.meter = nil
            self.reader = reader
        }
    }

    /// The sweep that marks the copies kept, and whether it decides which repositories the
    /// per-repository reads skip (`skips`); without one, every repository is read.
    func start(_ sweep: RepositorySweep, skips: Bool) {
        record.withLock {
            $0.sweep = sweep
            $0.skips = skips
        }
    }

    /// The sweep of the read, when it keeps one.
    var sweep: RepositorySweep? { record.withLock { $0.sweep } }

    /// The sweep, when it decides which repositories the per-repository reads skip.
    var skippingSweep: RepositorySweep? { record.withLock { $0.skips ? $0.sweep : nil } }

    /// Notes `events` a listing or a probe's look showed; `look` names the look they cover.
    func saw(_ events: [FeedEvent], look: String) {
        record.withLock {
            $0.sightings += events
            $0.looked.insert(look)
        }
    }

    /// Whether `look` was taken this read already.
    func hasLooked(_ look: String) -> Bool {
        record.withLock { $0.looked.contains(look) }
    }

    /// The mark of `path` under `sweep`: its newest feed event and sighting that `touches` says concern it.
    func mark(of path: RepositoryPath, sweep: RepositorySweep, touches: (FeedEvent) -> Bool) -> RepositorySweep.Mark {
        sweep.mark(of: path, sightings: record.withLock { $0.sightings }, touches: touches)
    }

    /// The requests the read budget leaves now; `nil` without a budget.
    var budgetLeft: Int? {
        guard let readBudget, let meter else { return nil }
        return max(0, readBudget - meter.requests)
    }

    /// Whether a read of `path` that no change asks for goes out: while the budget lasts; else
    /// it is left to its copy (`hasCopy`) or unread, which the budget's note counts.
    func mayRead(_ path: RepositoryPath, hasCopy: Bool) -> Bool {
        guard let readBudget, let meter else { return true }
        let withinBudget = meter.requests < readBudget
        record.withLock {
            if withinBudget {
                _ = $0.readWithinBudget.insert(path)
            } else if hasCopy {
                _ = $0.leftToCopies.insert(path)
            } else {
                _ = $0.leftUnread.insert(path)
            }
        }
        return withinBudget
    }

    /// What the read budget left for the next runs, in one line; `nil` when it left nothing.
    ///
    /// Runs at the same budget cover the repositories left unread in about as many runs as those
    /// over the ones this run read within it.
    func budgetNote() -> String? {
        let record = record.withLock { $0 }
        guard let readBudget, !record.leftToCopies.isEmpty || !record.leftUnread.isEmpty else { return nil }
        var line = "read budget of \(readBudget) requests reached"
        func repositories(_ count: Int) -> String { "\(count) repositor\(count == 1 ? "y" : "ies")" }
        if !record.leftToCopies.isEmpty {
            line += "; \(repositories(record.leftToCopies.count)) judged from their copies, read again in a later run"
        }
        if !record.leftUnread.isEmpty {
            let count = record.leftUnread.count
            let covered = max(1, record.readWithinBudget.count)
            let runs = (count + covered - 1) / covered
            line +=
                "; \(repositories(count)) never read \(count == 1 ? "waits" : "wait") for the next runs, "
                + "their items not judged (about \(runs) more run\(runs == 1 ? "" : "s") at this budget)"
        }
        return line
    }
}
