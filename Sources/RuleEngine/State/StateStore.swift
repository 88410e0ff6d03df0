import Foundation

/// The bot's memory between runs: the journal of writes, the runs that wrote them, and the
/// questions later runs and people ask of both.
///
/// Recording an intent (``ApplyJournal/record(_:)``) also drops the item's cached detail
/// (``ReadCache``): the write may move what the detail says without moving its version.
///
/// One store per server and account. Everything that keeps state asks it questions instead of
/// reading files, so the storage (SQLite in the `StateDatabase` module, ``InMemoryStateStore`` in
/// tests) can change without touching the rules or the applier.
public protocol StateStore: ApplyJournal, ReadCache, ActivityLog, DeliveryLog {
    /// Lets go of what the store holds (its files, its lock) once the work already asked of it is
    /// done; anything asked afterwards fails.
    ///
    /// A command closes its store when its work is done rather than leave it to whenever the last
    /// reference goes, so a second command in the same process (`watch`, tests, a library's user)
    /// never meets the first one's lock.
    func close() async

    /// The actions earlier runs left unfinished: exactly what ``UnfinishedAction/find(in:)`` answers
    /// over the whole journal.
    func unfinishedActions() async throws -> [UnfinishedAction]

    /// Records that a run has started, so `history` can say which command made an entry.
    ///
    /// Beginning a run with an id already on record replaces that record.
    func beginRun(_ run: RunRecord) async throws

    /// Records how a run ended; does nothing for a run that was never begun.
    func finishRun(id: String, at date: Date, exitCode: Int32) async throws

    /// The run with `id`, or `nil` when none is on record (never begun, or dropped by ``prune(resultsBefore:)``).
    func run(id: String) async throws -> RunRecord?

    /// The actions the journal holds that `query` asks for, newest first (see ``HistoryRecord``).
    func history(_ query: HistoryQuery) async throws -> [HistoryRecord]

    /// Adds the entries of an older journal after those already on record, all or none, unless
    /// entries under `key` were imported before.
    ///
    /// The key names the source (a file's path and size, say), so a run killed between the import
    /// and moving the file aside does not import it twice.
    /// - Returns: whether the entries were added; `false` when `key` was imported already.
    @discardableResult
    func importJournal(_ entries: [JournalEntry], key: String) async throws -> Bool

    /// Drops what the journal no longer needs to remember from before `date`, and answers how many
    /// entries went.
    ///
    /// Drops a run's entries about one rule and item once all of them are older than `date`, oldest
    /// first, unless the rule and item have an action still unfinished (see ``JournalRetention``),
    /// so ``unfinishedActions()`` answers the same before and after; runs that ended before
    /// `date` with no entries left; details cached before `date` (an item not seen since); and
    /// feed events kept from before `date`, but for each item's newest label event among them
    /// (which labels it had then, so a later addition can still be dated).
    @discardableResult
    func prune(resultsBefore date: Date) async throws -> Int

    /// The id of the newest feed event `watch` has handled, so a watcher started again goes on
    /// from there; `nil` before the first.
    func feedPosition() async throws -> Int?

    /// Records that every feed event up to `id` has been handled.
    func setFeedPosition(_ id: Int) async throws
}
