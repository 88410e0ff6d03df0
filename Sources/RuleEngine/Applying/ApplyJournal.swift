import Foundation

/// Where `apply` records every write it attempts and what came of it.
///
/// An intent is recorded before a write is sent and its result after, so a run killed in
/// between leaves an intent without a result: the next run re-reads the item and decides again.
public protocol ApplyJournal: Sendable {
    func record(_ entry: JournalEntry)
}

/// One line of the journal.
public struct JournalEntry: Sendable, Hashable, Codable {
    public enum Phase: String, Sendable, Hashable, Codable {
        case intent
        case result
    }

    public var at: Date
    public var phase: Phase
    public var rule: String
    /// `owner/name#12` and so on.
    public var item: String
    public var action: String
    public var argv: [String]
    /// For a result: `applied`, `already-done`, `failed`.
    public var outcome: String?
    /// For a failure: what the server or the network said.
    public var detail: String?

    public init(
        at: Date, phase: Phase, rule: String, item: String, action: String, argv: [String], outcome: String? = nil,
        detail: String? = nil
    ) {
        self.at = at
        self.phase = phase
        self.rule = rule
        self.item = item
        self.action = action
        self.argv = argv
        self.outcome = outcome
        self.detail = detail
    }
}
