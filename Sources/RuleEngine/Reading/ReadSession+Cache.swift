import Foundation
import GitbayKit

extension ReadSession {
    /// Puts cached details in place of listed items whose version still matches.
    ///
    /// A restored item knows ``ReadNeed/detail`` but not ``ReadNeed/freshDetail``: the fields and
    /// actions declared `cached()` judge it, and the planner reads afresh every item whose verdict
    /// or actions still wait on one that is not, as it reads an item it has no detail of.
    mutating func restoreCached(_ rules: [Rule]) async {
        var kinds: [ItemKind] = []
        for rule in rules where !kinds.contains(rule.kind) { kinds.append(rule.kind) }
        for kind in registry.kinds(ordering: kinds) {
            guard let cached = registry.cachedDetails(of: kind) else { continue }
            let noun = registry.noun(of: kind)
            let entries = await context.cachedEntries(of: kind).values
            var kept: [String: CachedDetail] = [:]
            var otherFormat = 0
            for entry in entries {
                if entry.format == cached.cacheFormat { kept[entry.item] = entry } else { otherFormat += 1 }
            }
            var served = 0
            var outdated = 0
            for path in context.repositories.keys.sorted() {
                guard let repository = context.repositories[path] else { continue }
                var payloads: [Int: String] = [:]
                for item in registry.items(of: kind, in: repository) where !item.known.contains(.detail) {
                    guard let entry = kept[registry.reference(to: item, in: path)] else { continue }
                    guard let version = cached.cacheVersion(of: item), version == entry.version else {
                        outdated += 1
                        continue
                    }
                    payloads[item.number] = entry.payload
                }
                guard !payloads.isEmpty else { continue }
                let restored = cached.restoreDetails(payloads, in: path, into: &context)
                served += restored
                outdated += payloads.count - restored
            }
            context.note("\(noun) details: \(served) served from the read cache, \(outdated) changed since it was kept")
            if otherFormat > 0 {
                context.note("\(noun) details: \(otherFormat) cached by another version of the plugin, ignored")
            }
        }
    }

    /// The details read afresh in this session, as the read cache keeps them (those whose kind
    /// keeps none, or whose listing gave no version, left out).
    func freshCacheEntries() -> [CachedDetail] {
        var entries: [CachedDetail] = []
        for fresh in freshDetails {
            guard let cached = registry.cachedDetails(of: fresh.kind),
                let repository = context.repositories[fresh.path],
                let item = registry.items(of: fresh.kind, in: repository).first(where: { $0.number == fresh.number }),
                item.known.contains(.freshDetail), let version = cached.cacheVersion(of: item),
                let payload = cached.cachePayload(of: item)
            else { continue }
            entries.append(
                CachedDetail(
                    item: registry.reference(to: item, in: fresh.path), kind: fresh.kind,
                    format: cached.cacheFormat, version: version, payload: payload))
        }
        return entries
    }

    /// Reads what `needs` asks of one item beyond its detail, when it lacks it; answers whether
    /// that took a request.
    mutating func readBeyondDetail(
        _ needs: Set<ReadNeed>, of kind: ItemKind, number: Int, in path: RepositoryPath
    ) async throws -> Bool {
        guard let reading = registry.reading(of: kind),
            let item = registry.items(of: kind, in: context.repository(path)).first(where: { $0.number == number })
        else { return false }
        let missing = needs.intersection(registry.beyondDetail).subtracting(item.known)
        guard !missing.isEmpty else { return false }
        try await reading.readBeyondDetail(missing, of: number, in: path, into: &context)
        return true
    }

    /// Reads one item's detail from the server and remembers it was read, for the cache.
    mutating func readFreshDetail(_ kind: ItemKind, number: Int, in path: RepositoryPath) async throws {
        guard let reading = registry.reading(of: kind) else { return }
        try await reading.readDetail(of: number, in: path, into: &context)
        freshDetails.append(FreshDetail(kind: kind, path: path, number: number))
        context.report.detailRequests += 1
    }
}

/// An item whose detail a session read from the server.
struct FreshDetail: Sendable, Hashable {
    var kind: ItemKind
    var path: RepositoryPath
    var number: Int
}
