import Foundation
import GitbayKit

extension ReadSession {
    /// Reads each repository fact a rule's condition needs that no listing brought (the
    /// dependency checker's `repo deps status`), in only the repositories where some item may
    /// still match a rule that needs it.
    ///
    /// Judged on everything read so far: the listings, the feed, the read cache. A repository
    /// whose every item another condition already rules out (none of its issues is stale, say)
    /// never needs the fact, and at a thousand repositories one read each is a seventh of an
    /// hour's budget. A verdict that is false on less stays false on more, so no item a full
    /// read would act on is missed. Each fact is read through its own definition's read
    /// (``ReadNeedDefinition``, one request per repository); facts of an item (a commit's
    /// statuses) are left to the detail reads.
    ///
    /// Where the rolling sweep says nothing changed, the copy an earlier run kept stands in for
    /// the read (``RepositorySweep``), judged by the events of the rule's kind.
    mutating func readRepositoryNeeds(rules: [Rule], now: Date, me: String) async throws {
        var wanted: [ReadNeed: Set<RepositoryPath>] = [:]
        var kinds: [ReadNeed: ItemKind] = [:]
        for rule in rules {
            let needs = rule.condition.needs(registry: registry, kind: rule.kind).filter { need in
                registry.definition(of: need).map { $0.snapshot != nil && !$0.perItem } ?? false
            }
            guard !needs.isEmpty else { continue }
            let condition = CompiledCondition(rule.condition, kind: rule.kind, registry: registry)
            for (path, repository) in context.repositories where rule.scope.contains(path) && !repository.archived {
                let missing = needs.subtracting(repository.known)
                guard !missing.isEmpty else { continue }
                let candidate = registry.items(of: rule.kind, in: repository).contains { item in
                    if let only, !only.contains(registry.reference(to: item, in: path), kind: rule.kind, in: path) {
                        return false
                    }
                    let itemContext = ItemContext(
                        item: item, repository: repository, now: now, me: me, registry: registry,
                        automation: automation)
                    return condition.decide(itemContext) != false
                }
                guard candidate else { continue }
                for need in missing {
                    wanted[need, default: []].insert(path)
                    kinds[need] = kinds[need] ?? rule.kind
                }
            }
        }
        for need in registry.needs {
            guard let paths = wanted[need]?.sorted(), let definition = registry.definition(of: need),
                let read = definition.snapshot, let kind = kinds[need]
            else {
                continue
            }
            let entry = need.name
            // The copy is the definition's own JSON, put back by it (``ReadNeedDefinition/copy``).
            let swept = await context.sweep(
                paths, of: kind, entry: entry, format: 1, touches: definition.changedBy, decode: { $0 })
            var reading = swept.read
            for (path, payload) in swept.kept {
                var repository = context.repository(path)
                guard definition.copy?.restore(payload, &repository) == true else {
                    reading.append(path)
                    continue
                }
                repository.known.insert(need)
                context.store(repository)
            }
            var requests = 0
            for path in reading {
                var repository = context.repository(path)
                guard context.mayRead(path, in: swept) else {
                    if let payload = swept.copies[path], definition.copy?.restore(payload, &repository) == true {
                        repository.known.insert(need)
                        context.store(repository)
                    }
                    continue
                }
                try await read.read(path, context.reader, &repository)
                requests += 1
                repository.known.insert(need)
                context.store(repository)
                if let payload = definition.copy?.keep(repository) {
                    context.keepCopy(
                        payload, of: path, kind: kind, entry: entry, format: 1, touches: definition.changedBy)
                }
            }
            context.note("\(read.command) for repositories with a candidate", requests: requests)
        }
    }
}
