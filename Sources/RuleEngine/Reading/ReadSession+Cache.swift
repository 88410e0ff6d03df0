import Foundation
import GitbayKit

extension ReadSession {
    /// Puts cached details in place of listed items whose version still matches.
    ///
    /// A restored item knows ``ReadNeed/detail`` but not ``ReadNeed/freshDetail``: the fields and
    /// actions declared `cached()` judge it, and the planner reads afresh every item whose verdict
    /// or actions still wait on one that is not, as it reads an item it has no detail of.
    mutating func restoreCached(_ rules: [Rule]) {
        var kinds: [ItemKind] = []
        for rule in rules where !kinds.contains(rule.kind) { kinds.append(rule.kind) }
        for kind in registry.kinds(ordering: kinds) {
            guard let definition = registry.definition(of: kind), definition.cacheFormat > 0 else { continue }
            let noun = definition.noun
            let entries = cachedEntries(of: kind).values
            var kept: [String: CachedDetail] = [:]
            var otherFormat = 0
            for entry in entries {
                if entry.format == definition.cacheFormat { kept[entry.item] = entry } else { otherFormat += 1 }
            }
            var served = 0
            var outdated = 0
            for path in repositories.keys.sorted() {
                guard let repository = repositories[path] else { continue }
                var payloads: [Int: String] = [:]
                for item in registry.items(of: kind, in: repository) where !item.known.contains(.detail) {
                    guard let entry = kept[registry.reference(to: item, in: path)] else { continue }
                    guard let version = definition.cacheVersion(of: item), version == entry.version else {
                        outdated += 1
                        continue
                    }
                    payloads[item.number] = entry.payload
                }
                guard !payloads.isEmpty else { continue }
                let restored = definition.restoreDetails(payloads, in: path, into: &self)
                served += restored
                outdated += payloads.count - restored
            }
            note("\(noun) details: \(served) served from the read cache, \(outdated) changed since it was kept")
            if otherFormat > 0 {
                note("\(noun) details: \(otherFormat) cached by another version of the plugin, ignored")
            }
        }
    }

    /// The cache's entries of `kind` by item, loaded once per session; none when the cache is not
    /// trusted, or cannot be read (said once in the notes: the run reads afresh instead).
    public mutating func cachedEntries(of kind: ItemKind) -> [String: CachedDetail] {
        guard trustsCache, let cache else { return [:] }
        if let loaded = loadedCache[kind] { return loaded }
        var entries: [String: CachedDetail] = [:]
        do {
            for entry in try cache.cachedDetails(of: kind) { entries[entry.item] = entry }
        } catch {
            note(
                "\(registry.noun(of: kind)) entries of the read cache could not be read, so they are read afresh: \(error)"
            )
        }
        loadedCache[kind] = entries
        return entries
    }

    /// Puts kept details back onto the listed records of `kind` in `path`, for a plugin's
    /// ``ItemKindDefinition/restoreDetails(_:in:into:)``: each payload (by item number) decoded as
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

    /// Keeps `entry` in the cache at the end of the read, beside the details read afresh: what a
    /// plugin learnt that saves a later read (where the builds that may still change begin).
    public mutating func keep(_ entry: CachedDetail) {
        keptEntries.append(entry)
    }

    /// The details read afresh in this session, as the read cache keeps them (those whose kind
    /// keeps none, or whose listing gave no version, left out).
    func freshCacheEntries() -> [CachedDetail] {
        var entries: [CachedDetail] = []
        for fresh in freshDetails {
            guard let definition = registry.definition(of: fresh.kind), definition.cacheFormat > 0,
                let repository = repositories[fresh.path],
                let item = registry.items(of: fresh.kind, in: repository).first(where: { $0.number == fresh.number }),
                item.known.contains(.freshDetail), let version = definition.cacheVersion(of: item),
                let payload = definition.cachePayload(of: item)
            else { continue }
            entries.append(
                CachedDetail(
                    item: registry.reference(to: item, in: fresh.path), kind: fresh.kind,
                    format: definition.cacheFormat, version: version, payload: payload))
        }
        return entries
    }

    /// Reads one item's detail from the server and remembers it was read, for the cache.
    mutating func readFreshDetail(_ kind: ItemKind, number: Int, in path: RepositoryPath) async throws {
        guard let definition = registry.definition(of: kind) else { return }
        try await definition.readDetail(of: number, in: path, into: &self)
        freshDetails.append(FreshDetail(kind: kind, path: path, number: number))
        report.detailRequests += 1
    }
}

/// An item whose detail a session read from the server.
struct FreshDetail: Sendable, Hashable {
    var kind: ItemKind
    var path: RepositoryPath
    var number: Int
}
