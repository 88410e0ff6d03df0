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
        var command = try FeedCommand(limit: pageSize)
        var events: [FeedEvent] = []
        var requests = 0
        var newest: Int?
        while requests < maxPages {
            let page = try await reader.send(command)
            requests += 1
            newest = newest ?? page.items.first?.id
            events += page.items.filter { $0.id > last }
            if page.items.contains(where: { $0.id <= last }) {
                return FeedPoll(events: events.reversed(), newest: newest ?? last, gap: false, requests: requests)
            }
            // A feed that ends before `last` no longer reaches back to it: what fell out between
            // cannot be known. One that was empty when watching began (`last` 0) is whole.
            guard let next = page.next else {
                return FeedPoll(events: events.reversed(), newest: newest ?? last, gap: last > 0, requests: requests)
            }
            command.cursor = next
        }
        return FeedPoll(events: events.reversed(), newest: newest ?? last, gap: true, requests: requests)
    }
}
