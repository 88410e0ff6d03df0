import Foundation
import GitbayKit

/// What the bot keeps of gitbay's activity feed between runs, so that a scheduled run learns who
/// did what to its items for a request or two instead of paging the feed back each time.
///
/// The feed is the one place gitbay names who labelled, edited, closed or reopened an item; it
/// reaches back a bounded number of events, so what a run saw is kept until retention drops it.
public protocol ActivityLog: Sendable {
    /// The id of the newest feed event kept; `nil` before the first.
    func activityPosition() async throws -> Int?

    /// Keeps `events` (each about a numbered item) and records that the feed has been read up to
    /// `position`, in one transaction.
    func keepActivity(_ events: [FeedEvent], position: Int) async throws

    /// Every event kept, oldest first.
    func keptActivity() async throws -> [FeedEvent]

    /// The results of the bot's writes that landed (`applied`), oldest first, without their
    /// reasons or bodies: what the bot itself did to its items, read every run, so it must stay
    /// cheap however long the journal is.
    func appliedWrites() async throws -> [JournalEntry]

    /// The results of the bot's writes gitbay refused (`refused`), oldest first, with their
    /// bodies: a reply among them settles the commands it answers (``ActivityHistory``). Few, so
    /// cheap to read every run.
    func refusedWrites() async throws -> [JournalEntry]
}
