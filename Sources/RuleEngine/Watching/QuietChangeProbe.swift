import Foundation
import GitbayKit

/// A cheap read that `watch` polls beside the feed, for changes the feed never shows.
///
/// gitbay's feed leaves pushes out (`internal/store/dashboard.go`, `RecentEvents`), and a push
/// records no event a client can read, though it moves what other reads show: the head and
/// `updated_at` of the open merge requests on the branch (`internal/store/mrs.go`, `UpdateMRHead`;
/// docs/gitbay-conformance.md, "What a push leaves in the feed"). A probe notes a version per key
/// and, for each one that moved, raises an event of the bot's own making, which each kind's plugin
/// maps to its items as it does the feed's (``WatchedKind/watchEffect(of:)``).
public protocol QuietChangeProbe: Sendable {
    /// The kind of the events the probe raises; the watcher polls the probe only when some rule's
    /// kind watches their family (``WatchedKind/watches(family:)``).
    var eventKind: String { get }
    /// What the probe sees now within `scope`.
    func look(in scope: RuleScope, reader: any ForgeReader) async throws -> ProbeLook
}

/// One look of a ``QuietChangeProbe``: a version per key, with the event to raise when it moves.
public struct ProbeLook: Sendable, Hashable {
    /// What one key showed.
    public struct Entry: Sendable, Hashable {
        public var key: String
        public var version: String
        /// The event to raise when ``version`` differs from the one seen before.
        public var event: FeedEvent

        public init(key: String, version: String, event: FeedEvent) {
            self.key = key
            self.version = version
            self.event = event
        }
    }

    public var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// Each key's version, to compare the next look with.
    public var versions: [String: String] {
        Dictionary(entries.map { ($0.key, $0.version) }, uniquingKeysWith: { first, _ in first })
    }

    /// The events of the keys whose version differs from `previous`, or that it did not have,
    /// less those that the account's own write explains.
    ///
    /// A key that is gone raises nothing: what ends an item (a merge, a close) is in the feed. A
    /// move is the bot's own when one of `ownEvents` names the same item at or after the item's
    /// new time: its write moved it, and judging the item again would only find it done. Anyone
    /// who changed the item later moved its time past that event, so their change still counts.
    public func changes(since previous: [String: String], ownEvents: [FeedEvent] = []) -> [FeedEvent] {
        entries.filter { previous[$0.key] != $0.version }.map(\.event).filter { change in
            !ownEvents.contains { own in
                own.repo == change.repo && own.number == change.number && own.family == change.family
                    && own.createdAt >= change.createdAt
            }
        }
    }
}
