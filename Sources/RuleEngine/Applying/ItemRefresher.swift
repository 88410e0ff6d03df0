import Foundation
import GitbayKit

/// Reads one planned item again, fresh, with what its conditions and actions consult, through its
/// kind's ``ItemKindReading``.
///
/// Repository-wide facts (the tracking issue, branch tips, open merge requests, builds) are read
/// once per repository and kept for the rest of the run, and only when the entry's conditions and
/// actions consult them: a fact it did not read is never marked as known.
struct ItemRefresher {
    let registry: PluginRegistry
    private var context: ReadContext

    init(registry: PluginRegistry, reader: any ForgeReader) {
        self.registry = registry
        context = ReadContext(registry: registry, reader: reader)
    }

    /// The item as it is now, or `nil` when it is gone from the forge (or no plugin reads its kind).
    mutating func context(for entry: PlanEntry, me: String, now: Date) async throws -> ItemContext? {
        guard let reader = registry.reading(of: entry.item.kind) else { return nil }
        let needs = entry.precondition.needs(registry: registry, kind: entry.item.kind)
        guard let fresh = try await reader.refresh(entry.item, needs: needs, in: &context) else { return nil }
        return ItemContext(item: fresh.item, repository: fresh.repository, now: now, me: me, registry: registry)
    }

    /// Forgets what was read of a repository, so the next context reads it afresh (after a write
    /// to one of its items whose outcome is unknown).
    mutating func forget(_ path: String) {
        if let path = try? RepositoryPath(path) {
            context.repositories[path] = nil
        }
    }
}
