import Foundation
import GitbayKit

/// What one watch pass was and did, for its line (``PassLine``), the status page and systemd.
public struct PassSummary: Sendable {
    public var kind: WatchMachine.PassKind
    public var events = 0
    public var ownEvents = 0
    /// Changes the feed did not show, found by the plugins' probes (a push, say).
    public var unannounced = 0
    public var items = 0
    public var requests = 0
    public var actions = 0
    /// Writes the drain finished since the last pass's line, applied and failed.
    public var applied = 0
    public var failed = 0
    /// Commands waiting to be sent after this pass handed its own over.
    public var waiting = 0
    /// How long it took, from its start to its line.
    public var seconds: TimeInterval = 0
    /// Each action's rule and outcome (`planned` in a dry run), for `actions_total`.
    public var outcomes: [WatchStatus.ActionKey] = []
    /// The repositories a full pass read.
    public var repositories: [RepositoryPath] = []

    /// A pass of `kind` that has read `events` of the feed and done nothing yet.
    public init(kind: WatchMachine.PassKind, events: Int = 0) {
        self.kind = kind
        self.events = events
    }
}
