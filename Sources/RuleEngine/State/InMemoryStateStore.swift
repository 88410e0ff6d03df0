import Foundation
import GitbayKit
import Synchronization

/// A ``StateStore`` in memory: the twin of the SQLite store for tests, answering every question
/// straight from the definitions (``UnfinishedAction/find(in:)`` over the whole journal,
/// ``HistoryRecord/records(in:matching:)``, ``JournalRetention``).
public final class InMemoryStateStore: StateStore {
    private struct State {
        var journal: [JournalEntry]
        var runs: [RunRecord] = []
        var importedKeys: Set<String> = []
        var cache: [String: (detail: CachedDetail, at: Date)] = [:]
        var feedPosition: Int?
        var activityPosition: Int?
        var activity: [Int: FeedEvent] = [:]
        /// The bodies taken (their digests), and the same in the order they were taken.
        var deliveries: Set<[UInt8]> = []
        var deliveryOrder: [[UInt8]] = []
    }

    private let state: Mutex<State>

    /// A store holding `journal` and no runs.
    public init(journal: [JournalEntry] = []) {
        state = Mutex(State(journal: journal))
    }

    /// Every entry on record, in the order they were written.
    public var journal: [JournalEntry] {
        state.withLock { $0.journal }
    }

    /// Nothing to let go of: the store holds no file.
    public func close() async {}

    /// Appends `entry`; an intent drops its item's cached detail.
    public func record(_ entry: JournalEntry) {
        state.withLock { state in
            state.journal.append(entry)
            if entry.phase == .intent { state.cache[entry.item] = nil }
        }
    }

    public func feedPosition() -> Int? {
        state.withLock { $0.feedPosition }
    }

    public func setFeedPosition(_ id: Int) {
        state.withLock { $0.feedPosition = id }
    }

    /// Keeps the newest ``DeliveryLog/deliveriesKept`` bodies in the order they came; `id` is
    /// not compared.
    public func takeDelivery(_ id: Int, bodyDigest: [UInt8], at date: Date) -> Bool {
        state.withLock { state in
            guard state.deliveries.insert(bodyDigest).inserted else { return false }
            state.deliveryOrder.append(bodyDigest)
            let forgotten = state.deliveryOrder.count - Self.deliveriesKept
            if forgotten > 0 {
                for digest in state.deliveryOrder.prefix(forgotten) { state.deliveries.remove(digest) }
                state.deliveryOrder.removeFirst(forgotten)
            }
            return true
        }
    }

    public func activityPosition() -> Int? {
        state.withLock { $0.activityPosition }
    }

    public func keepActivity(_ events: [FeedEvent], position: Int) {
        state.withLock { state in
            for event in events where event.number != nil { state.activity[event.id] = event }
            state.activityPosition = max(position, state.activityPosition ?? position)
        }
    }

    public func appliedWrites() -> [JournalEntry] {
        journal.filter { $0.phase == .result && $0.outcome == "applied" }
    }

    public func refusedWrites() -> [JournalEntry] {
        journal.filter { $0.phase == .result && $0.outcome == JournalEntry.refusedOutcome }
    }

    public func keptActivity() -> [FeedEvent] {
        state.withLock { $0.activity.values.sorted { $0.id < $1.id } }
    }

    public func cachedDetails(of kind: ItemKind) -> [CachedDetail] {
        state.withLock { state in
            state.cache.values.filter { $0.detail.kind == kind }.map { entry in
                var detail = entry.detail
                detail.storedAt = entry.at
                return detail
            }.sorted { $0.item < $1.item }
        }
    }

    public func storeDetails(_ details: [CachedDetail], at date: Date) {
        state.withLock { state in
            for detail in details { state.cache[detail.item] = (detail, date) }
        }
    }

    /// ``UnfinishedAction/find(in:)`` over the whole journal.
    public func unfinishedActions() -> [UnfinishedAction] {
        UnfinishedAction.find(in: journal)
    }

    /// Keeps `run`, in place of any run with its id.
    public func beginRun(_ run: RunRecord) {
        state.withLock { state in
            state.runs.removeAll { $0.id == run.id }
            state.runs.append(run)
        }
    }

    /// Sets the end of the run with `id`, if there is one.
    public func finishRun(id: String, at date: Date, exitCode: Int32) {
        state.withLock { state in
            for index in state.runs.indices where state.runs[index].id == id {
                state.runs[index].finishedAt = date
                state.runs[index].exitCode = exitCode
            }
        }
    }

    /// The run with `id`, if kept.
    public func run(id: String) -> RunRecord? {
        state.withLock { $0.runs.first { $0.id == id } }
    }

    /// ``HistoryRecord/records(in:matching:)`` over the whole journal.
    public func history(_ query: HistoryQuery) -> [HistoryRecord] {
        HistoryRecord.records(in: journal, matching: query)
    }

    /// Appends `entries` unless `key` was imported before.
    @discardableResult
    public func importJournal(_ entries: [JournalEntry], key: String) -> Bool {
        state.withLock { state in
            guard state.importedKeys.insert(key).inserted else { return false }
            state.journal += entries
            return true
        }
    }

    /// Drops the entries ``JournalRetention/droppable(_:before:unfinished:)`` names, then the runs
    /// that ended before `date` with no entries left.
    @discardableResult
    public func prune(resultsBefore date: Date) -> Int {
        state.withLock { state in
            let stamps = state.journal.map {
                JournalRetention.Stamp(run: $0.run, rule: $0.rule, item: $0.item, at: $0.at)
            }
            let dropped = Set(
                JournalRetention.droppable(stamps, before: date, unfinished: UnfinishedAction.find(in: state.journal)))
            state.journal = state.journal.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
            let remaining = Set(state.journal.map(\.run))
            state.runs.removeAll { $0.ended(before: date) && !remaining.contains($0.id) }
            state.cache = state.cache.filter { $0.value.at >= date }
            let baselines = Dictionary(
                state.activity.values.filter { $0.createdAt < date && $0.kind.hasSuffix(".labeled") }.map {
                    ("\($0.repo)#\($0.number ?? 0)", $0.id)
                }, uniquingKeysWith: max)
            let kept = Set(baselines.values)
            state.activity = state.activity.filter { $0.value.createdAt >= date || kept.contains($0.key) }
            return dropped.count
        }
    }
}
