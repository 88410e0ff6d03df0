import Foundation

/// One action the bot set out to do, with what came of it: the answer to "what did the bot do to
/// this item, and why".
///
/// Built from the journal: an intent and the result that followed it in the same run, or an
/// action planned for an entry that the run never got to (``attempted`` false, no outcome).
public struct HistoryRecord: Sendable, Hashable {
    /// When the write was about to be sent (the intent), or when it was planned.
    public var at: Date
    /// The id of the run that set out to do it (see ``RunRecord``).
    public var run: String
    /// The rule that chose the item.
    public var rule: String
    /// The item, as `owner/name#12`, `owner/name!12` or `owner/name/builds/4213`.
    public var item: String
    /// The action's name, as the rule writes it.
    public var action: String
    /// The control command the write sent, or would have sent.
    public var argv: [String]
    /// The command's stdin, such as a comment's text.
    public var stdin: String?
    /// Whether the write was about to be sent; `false` for an action planned but never attempted.
    public var attempted: Bool
    /// `applied`, `already-done`, `failed`, `not-sent` (stopped while the write waited to go out),
    /// or `nil` when no result is on record: the run stopped before the write, or was killed
    /// before it could say how the write went.
    public var outcome: String?
    /// The result's detail: what the server or the network said about a failure.
    public var detail: String?
    /// When the result was recorded.
    public var resultAt: Date?
    /// Why the rule chose the item, as the intent recorded it.
    public var reasons: [ConditionResult]?

    public init(
        at: Date, run: String, rule: String, item: String, action: String, argv: [String], stdin: String? = nil,
        attempted: Bool, outcome: String? = nil, detail: String? = nil, resultAt: Date? = nil,
        reasons: [ConditionResult]? = nil
    ) {
        self.at = at
        self.run = run
        self.rule = rule
        self.item = item
        self.action = action
        self.argv = argv
        self.stdin = stdin
        self.attempted = attempted
        self.outcome = outcome
        self.detail = detail
        self.resultAt = resultAt
        self.reasons = reasons
    }

    /// The records of `journal` that `query` asks for, newest first (the later entry first when two
    /// share a time).
    ///
    /// Within a run, a result answers the latest intent for the same rule, item, action and argv
    /// that has no result yet; a result with no such intent stands alone, timed by itself. A
    /// planned action gets a record of its own only when its run recorded no intent for it. A
    /// store may pass only the runs' entries about the rules and items the query names: the
    /// answer is the same.
    public static func records(in journal: [JournalEntry], matching query: HistoryQuery) -> [HistoryRecord] {
        struct Attempt: Hashable {
            var run: String
            var rule: String
            var item: String
            var action: String
            var argv: [String]
        }
        func attempt(_ entry: JournalEntry) -> Attempt {
            Attempt(run: entry.run, rule: entry.rule, item: entry.item, action: entry.action, argv: entry.argv)
        }
        let entries = journal.filter { entry in
            (query.item.map { entry.item == $0 } ?? true) && (query.rule.map { entry.rule == $0 } ?? true)
        }
        let intended = Set(entries.filter { $0.phase == .intent }.map(attempt))
        var records: [HistoryRecord] = []
        var awaitingResult: [Attempt: [Int]] = [:]
        for entry in entries {
            let key = attempt(entry)
            switch entry.phase {
            case .planned:
                guard !intended.contains(key) else { continue }
                records.append(HistoryRecord(entry, attempted: false))
            case .intent:
                awaitingResult[key, default: []].append(records.count)
                records.append(HistoryRecord(entry, attempted: true))
            case .result:
                guard let index = awaitingResult[key]?.popLast() else {
                    var alone = HistoryRecord(entry, attempted: true)
                    alone.settle(with: entry)
                    records.append(alone)
                    continue
                }
                records[index].settle(with: entry)
            }
        }
        let newestFirst = records.enumerated()
            .filter { _, record in query.since.map { record.at >= $0 } ?? true }
            .sorted { ($0.element.at, $0.offset) > ($1.element.at, $1.offset) }
            .map(\.element)
        return Array(newestFirst.prefix(max(query.limit ?? .max, 0)))
    }

    /// The record an intent or a planned entry opens.
    private init(_ entry: JournalEntry, attempted: Bool) {
        self.init(
            at: entry.at, run: entry.run, rule: entry.rule, item: entry.item, action: entry.action, argv: entry.argv,
            stdin: entry.stdin, attempted: attempted, reasons: entry.reasons)
    }

    /// Takes a result's outcome, detail and time.
    private mutating func settle(with result: JournalEntry) {
        outcome = result.outcome
        detail = result.detail
        resultAt = result.at
    }
}
