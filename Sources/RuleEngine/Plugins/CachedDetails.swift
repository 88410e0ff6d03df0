import GitbayKit

/// A kind whose detail reads the read cache keeps between runs, under a version its listing
/// gives, so an unchanged item's details cost no request.
///
/// A kind that does not conform reads every detail fresh.
public protocol CachedDetails: Sendable {
    /// The format of this kind's entries in the read cache, raised whenever the payload changes, so
    /// a payload another version of the plugin wrote is never decoded as this one's.
    var cacheFormat: Int { get }

    /// What the listing says of `item` that moves whenever anything a cached field or action reads
    /// from its detail changes (an issue's `updated_at`); `nil` when the listing gives no such
    /// version, and the detail is then read fresh.
    func cacheVersion(of item: Item) -> String?

    /// The item's detail as the read cache keeps it; `nil` when it has none to keep.
    func cachePayload(of item: Item) -> String?

    /// Puts cached details (`payloads` by item number) in place of the listed items in `path`, as
    /// ``ItemKindReading/readDetail(of:in:into:)`` does with fresh ones, keeping what the listing
    /// read afresh (labels learnt by query, state, times); answers how many it restored. A payload
    /// that cannot be decoded is skipped, and that detail is read fresh.
    func restoreDetails(_ payloads: [Int: String], in path: RepositoryPath, into context: inout ReadContext) -> Int
}
