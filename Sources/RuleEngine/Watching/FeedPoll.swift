import Foundation
import GitbayKit

/// What one look at the activity feed found: the events newer than the last one handled, or
/// that the feed cannot say what happened since (a gap), which only a full pass makes good.
public struct FeedPoll: Sendable, Hashable {
    /// The events after the last one handled, oldest first.
    public var events: [FeedEvent]
    /// The newest event id seen, to record once the events are handled; `nil` on an empty feed.
    public var newest: Int?
    /// Whether events may have been missed: no position to start from, or the feed no longer
    /// reaches back to it (after downtime longer than the feed keeps, say).
    public var gap: Bool
    /// The requests it took.
    public var requests: Int

    public init(events: [FeedEvent], newest: Int?, gap: Bool, requests: Int) {
        self.events = events
        self.newest = newest
        self.gap = gap
        self.requests = requests
    }

    /// Reads the feed newest first, paging back until it meets an event at or before `last`.
    ///
    /// Event ids only grow but need not be consecutive (the feed shows the repositories the
    /// account reaches, out of the server's one sequence), so only meeting `last` or an older one
    /// proves nothing was missed; a feed that ends first, or `maxPages` pages without meeting it,
    /// is a gap. Without `last` (a first start) it reads one event, for where to begin (0 when the
    /// feed is empty).
    public static func read(
        after last: Int?, reader: any ForgeReader, pageSize: Int = 50, maxPages: Int = 20
    ) async throws -> FeedPoll {
        guard let last else {
            // Event ids start at 1, so an empty feed begins before 0.
            let page = try await reader.send(try FeedCommand(limit: 1))
            return FeedPoll(events: [], newest: page.items.first?.id ?? 0, gap: true, requests: 1)
        }
        let read = try await FeedRead.read(after: last, reader: reader, pageSize: pageSize, pages: maxPages)
        // A feed that ends before `last` no longer reaches back to it: what fell out between
        // cannot be known. One that was empty when watching began (`last` 0) is whole. One whose
        // newest event is older than `last` reissues ids (``FeedRead/wentBack``): what came under
        // them cannot be told from what was handled, and the position follows the feed back.
        let gap = (!read.metPosition && !(read.ended && last == 0)) || read.wentBack
        return FeedPoll(events: read.events, newest: read.newest ?? last, gap: gap, requests: read.requests)
    }
}
