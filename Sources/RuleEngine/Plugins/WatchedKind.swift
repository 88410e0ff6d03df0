import GitbayKit

/// A kind that judges which of its items a feed event touches, so `watch` re-reads those alone.
///
/// A kind that does not conform takes any event as touching every item of the event's
/// repository: an event no plugin judges is never missed.
public protocol WatchedKind: Sendable {
    /// Whether events of `family` (``FeedEvent/family``) can touch this kind's items at all.
    ///
    /// Asked of the family alone, with no event, so the watcher can tell which probes to poll
    /// before any probe raised anything: a kind that looks at an event's repository or number
    /// to judge it still answers for the whole family here. ``watchEffect(of:)`` answers
    /// ``WatchEffect/none`` for the events of a family this answers `false` for.
    func watches(family: String) -> Bool

    /// What a feed event does to this kind's items: nothing, one item, or any item of the event's
    /// repository.
    func watchEffect(of event: FeedEvent) -> WatchEffect
}
