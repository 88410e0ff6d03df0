import Foundation

/// One item's detail read (`issue show`), kept between runs with the version that says whether
/// it still holds.
///
/// The version is what the listing tells of the item (an issue's `updated_at`), so a run compares
/// it with the fresh listing before it trusts the detail; the format is the plugin's
/// ``CachedDetails/cacheFormat``, so a payload written by another version of a plugin is
/// never decoded as this one's.
public struct CachedDetail: Sendable, Hashable {
    /// The item's reference (`owner/name#12`), as the journal names it.
    public var item: String
    public var kind: ItemKind
    public var format: Int
    public var version: String
    /// The plugin's own encoding of the detail.
    public var payload: String
    /// When the run that read it kept it; `nil` for an entry not yet stored.
    ///
    /// What the rolling sweep judges a repository's per-repository reads by (``RepositorySweep``):
    /// an entry's age is how long its repository has gone unread.
    public var storedAt: Date?

    public init(item: String, kind: ItemKind, format: Int, version: String, payload: String, storedAt: Date? = nil) {
        self.item = item
        self.kind = kind
        self.format = format
        self.version = version
        self.payload = payload
        self.storedAt = storedAt
    }
}

/// Where the read planner keeps details between runs; part of the ``StateStore``.
///
/// A stale entry can at worst delay an action, never cause a wrong one: `apply` re-reads every
/// item before it writes. Recording a write's intent drops the item's entry (in the same
/// transaction), so the bot's own writes are never hidden behind a version they did not move.
public protocol ReadCache: Sendable {
    /// Every kept detail of `kind`, whatever its format, each with the date it was stored.
    func cachedDetails(of kind: ItemKind) async throws -> [CachedDetail]

    /// Keeps `details` (each in place of the item's earlier one), all or none, stamped `date`.
    func storeDetails(_ details: [CachedDetail], at date: Date) async throws
}
