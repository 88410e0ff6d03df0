import GitbayKit

/// The activity feed read newest first, back to an event already handled or for a number of
/// pages: what a run learns of who did what since the last one, and what `watch` polls.
public struct FeedRead: Sendable, Hashable {
    /// The most rows gitbay gives a page (`internal/control/dashboard.go` `runFeed`).
    public static let pageSize = 200

    /// The events after the position, oldest first.
    public var events: [FeedEvent]
    /// The newest event id seen; `nil` on an empty feed.
    public var newest: Int?
    public var requests: Int
    /// Whether a page held an event at or before the position, which proves nothing between was missed.
    public var metPosition: Bool
    /// Whether the feed ended (no further page) before the position was met.
    public var ended: Bool
    /// Whether the feed's newest event is older than the position: gitbay deleted the newest
    /// events (a repository's go with it) and, its `events.id` being `INTEGER PRIMARY KEY` without
    /// AUTOINCREMENT (`internal/store/migrations/0001_init.up.sql`), hands their ids out again, so
    /// an event at or below the position may be new.
    public var wentBack = false

    /// Whether the read met the position or the feed's end, so nothing it still holds was missed;
    /// never when the ids went back, since reissued ids hide new events below the position.
    public var reachedPosition: Bool { (metPosition || ended) && !wentBack }

    /// Reads pages of `pageSize` until one holds an event at or before `position`, the feed ends,
    /// or `pages` pages were read.
    public static func read(
        after position: Int?, reader: any ForgeReader, pageSize: Int = pageSize, pages: Int
    ) async throws -> FeedRead {
        var command = try FeedCommand(limit: pageSize)
        var read = FeedRead(events: [], newest: nil, requests: 0, metPosition: false, ended: false)
        while read.requests < pages {
            let page = try await reader.send(command)
            read.requests += 1
            read.newest = read.newest ?? page.items.first?.id
            read.events += page.items.filter { event in position.map { event.id > $0 } ?? true }
            if let position, page.items.contains(where: { $0.id <= position }) {
                read.metPosition = true
                break
            }
            guard let next = page.next else {
                read.ended = true
                break
            }
            command.cursor = next
        }
        read.events.reverse()
        if let position, let newest = read.newest { read.wentBack = newest < position }
        return read
    }
}
