import GitbayKit

/// A kind that judges which of its items a feed event touches, so `watch` re-reads those alone.
///
/// A kind that does not conform takes any event as touching every item of the event's
/// repository: an event no plugin judges is never missed.
public protocol WatchedKind: Sendable {
    /// What a feed event does to this kind's items: nothing, one item, or any item of the event's
    /// repository.
    func watchEffect(of event: FeedEvent) -> WatchEffect
}
