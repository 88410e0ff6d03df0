import Foundation
import GitbayKit

/// The read cache as a kind's reads use it: what it holds, what to keep, details put back.
extension ReadContext {
    /// Whether details read are kept in a read cache, so listings read the versions that validate
    /// them (a merge request's activity time) even when no rule needs them.
    public var keepsCache: Bool { cache != nil }

    /// Keeps `entry` in the cache at the end of the read, beside the details read afresh: what a
    /// plugin learnt that saves a later read (where the builds that may still change begin).
    public mutating func keep(_ entry: CachedDetail) {
        keptEntries.append(entry)
    }

    /// The cache's entries of `kind` by item, loaded once per read; none when the cache is not
    /// trusted, or cannot be read (said once in the notes: the run reads afresh instead).
    public mutating func cachedEntries(of kind: ItemKind) async -> [String: CachedDetail] {
        guard trustsCache, let cache else { return [:] }
        if let loaded = loadedCache[kind] { return loaded }
        var entries: [String: CachedDetail] = [:]
        do {
            for entry in try await cache.cachedDetails(of: kind) { entries[entry.item] = entry }
        } catch {
            note(
                "\(registry.noun(of: kind)) entries of the read cache could not be read, so they are read afresh: \(error)"
            )
        }
        loadedCache[kind] = entries
        return entries
    }

    /// Puts kept details back onto the listed records of `kind` in `path`, for a plugin's
    /// ``CachedDetails/restoreDetails(_:in:into:)``: each payload (by item number) decoded as
    /// `Payload`, then `restore` copies what the detail alone holds onto the record, or refuses
    /// (a payload of another item); answers how many it restored.
    public mutating func restoreDetails<Record: ItemRecord, Payload: Decodable>(
        _ payloads: [Int: String], of kind: ItemKind, in path: RepositoryPath, as payload: Payload.Type,
        restore: (inout Record, Payload) -> Bool
    ) -> Int {
        guard var records = repositories[path]?.records(kind, as: Record.self), !records.isEmpty else { return 0 }
        let decoder = JSONDecoder()
        var restored = 0
        for index in records.indices {
            guard let text = payloads[records[index].number],
                let decoded = try? decoder.decode(Payload.self, from: Data(text.utf8)),
                restore(&records[index], decoded)
            else { continue }
            restored += 1
        }
        repositories[path]?.setRecords(records, kind)
        return restored
    }
}
