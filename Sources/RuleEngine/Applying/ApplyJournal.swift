import Foundation

/// Where `apply` records every write it attempts and what came of it.
///
/// An intent is recorded before a write is sent and its result after, so a run killed in
/// between leaves an intent without a result: the next run re-reads the item and decides again.
public protocol ApplyJournal: Sendable {
    /// Records `entry` durably before returning.
    ///
    /// Throws when the entry could not be made durable (a full disk, a read-only or corrupt file);
    /// the applier then sends nothing more, because a write without its intent on record could be
    /// doubled by the next run. The error's description is one line that names the file.
    func record(_ entry: JournalEntry) async throws
}

/// One line of the journal.
public struct JournalEntry: Sendable, Hashable, Codable {
    public enum Phase: String, Sendable, Hashable, Codable {
        /// One of an entry's actions, recorded for all of them before the entry's first write, so a
        /// run killed after that write still tells the next run what the rest of the entry was.
        case planned
        case intent
        case result
    }

    public var at: Date
    /// Which apply run wrote it, so an entry left half-done by one run can be finished by the next.
    public var run: String
    public var phase: Phase
    public var rule: String
    /// `owner/name#12` and so on.
    public var item: String
    public var action: String
    public var argv: [String]
    /// For a result: `applied`, `already-done`, `failed`, `refused` (``refusedOutcome``) or
    /// `not-sent` (the run was stopped while the write waited to go out).
    public var outcome: String?
    /// For a failure: what the server or the network said.
    public var detail: String?
    /// The command's stdin and argument, so a later run can send it again and tell if it is done.
    public var stdin: String?
    public var argument: ActionArgument?
    /// For an intent: why the rule chose the item (each condition and the value that satisfied
    /// it), so `history` can answer "why did the bot do this" long after the plan is gone.
    public var reasons: [ConditionResult]?

    /// The result of a command's action that gitbay refused (a gate, an expiring token): a failure
    /// whose entry is settled, since the person is told why and a later try could do what the reply
    /// said was not done.
    public static let refusedOutcome = "refused"

    public init(
        at: Date, run: String, phase: Phase, rule: String, item: String, action: String, argv: [String],
        outcome: String? = nil, detail: String? = nil, stdin: String? = nil, argument: ActionArgument? = nil,
        reasons: [ConditionResult]? = nil
    ) {
        self.at = at
        self.run = run
        self.phase = phase
        self.rule = rule
        self.item = item
        self.action = action
        self.argv = argv
        self.outcome = outcome
        self.detail = detail
        self.stdin = stdin
        self.argument = argument
        self.reasons = reasons
    }
}
