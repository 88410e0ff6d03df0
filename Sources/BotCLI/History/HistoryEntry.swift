import Foundation
import RuleEngine

/// One action in `history`'s output: a ``HistoryRecord`` with its run's command and its account,
/// in the JSON form `--format json` and `jsonl` print (docs/state.md pins it).
struct HistoryEntry: Sendable, Hashable, Codable {
    /// What came of an action, as `history` names it.
    enum Outcome: String, Sendable, Hashable, Codable {
        case applied
        case alreadyDone = "already-done"
        case failed
        /// Sent, but the run ended before recording how it went: the next run re-reads the item.
        case unrecorded
        /// Planned for an entry whose run stopped before sending it, or stopped while it waited
        /// to go out (for the write budget, a `Retry-After`, a backoff).
        case notSent = "not-sent"
        /// A command's action gitbay refused: its giver was told why, and it is never tried again.
        case refused
    }

    /// When the write was about to be sent, or was planned.
    var at: Date
    var run: String
    /// The command that ran (`run`, `apply`), when the run is on record.
    var command: String?
    var account: String
    var rule: String
    var item: String
    var action: String
    var argv: [String]
    var stdin: String?
    var outcome: Outcome
    /// What the server or the network said, for a failure.
    var detail: String?
    var resultAt: Date?
    /// Each condition of the rule with the value that chose the item.
    var reasons: [ConditionResult]

    init(_ record: HistoryRecord, command: String?, account: String) {
        at = record.at
        run = record.run
        self.command = command.flatMap { $0.isEmpty ? nil : $0 }
        self.account = account
        rule = record.rule
        item = record.item
        action = record.action
        argv = record.argv
        stdin = record.stdin
        switch record.outcome {
        case "applied": outcome = .applied
        case "already-done": outcome = .alreadyDone
        case "failed": outcome = .failed
        case "not-sent": outcome = .notSent
        case JournalEntry.refusedOutcome: outcome = .refused
        default: outcome = record.attempted ? .unrecorded : .notSent
        }
        detail = record.detail
        resultAt = record.resultAt
        reasons = record.reasons ?? []
    }
}

/// `history --format json`: the server and its entries, newest first.
struct HistoryDocument: Sendable, Hashable, Codable {
    static let currentFormat = "gitbay-bot-history/1"

    var format = HistoryDocument.currentFormat
    var server: String
    var entries: [HistoryEntry]
}
