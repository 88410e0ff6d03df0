import Foundation

/// One invocation of the bot that may write: when it ran, what command it was and how it ended.
///
/// Journal entries carry their run's id, so this is what tells `history` which command made them.
public struct RunRecord: Sendable, Hashable {
    /// The id journal entries carry in ``JournalEntry/run``.
    public var id: String
    /// The command line's command: `run`, `apply`, `watch`.
    public var command: String
    /// When the run began.
    public var startedAt: Date
    /// `nil` while the run goes on, or when it was killed before it could say.
    public var finishedAt: Date?
    /// The process's exit code, once it finished.
    public var exitCode: Int32?

    public init(id: String, command: String, startedAt: Date, finishedAt: Date? = nil, exitCode: Int32? = nil) {
        self.id = id
        self.command = command
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.exitCode = exitCode
    }

    /// Whether retention may drop the record: it finished before `date` (a run still going, or
    /// killed without a word, stays, so nobody is left wondering what it was).
    public func ended(before date: Date) -> Bool {
        finishedAt.map { $0 < date } ?? false
    }
}
