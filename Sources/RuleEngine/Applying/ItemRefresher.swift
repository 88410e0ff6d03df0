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
    /// The bot's account and the other automation accounts the plan was judged with.
    let me: String
    let automation: Set<String>
    /// Who did what to the items, which the fresh read carries as the plan's read did.
    let activity: ActivityHistory?
    /// Where the repository facts are kept beyond this run, when they are shared with others.
    let facts: RepositoryFacts?
    private var context: ReadContext

    init(
        registry: PluginRegistry, reader: any ForgeReader, me: String, automation: Set<String> = [],
        activity: ActivityHistory? = nil, facts: RepositoryFacts? = nil
    ) {
        self.registry = registry
        self.me = me
        self.automation = automation
        self.activity = activity
        self.facts = facts
        context = ReadContext(registry: registry, reader: reader)
        if let facts { context.repositories = facts.repositories }
    }

    /// The item as it is now, or `nil` when it is gone from the forge (or no plugin reads its kind).
    mutating func context(for entry: PlanEntry, now: Date) async throws -> ItemContext? {
        guard let reader = registry.reading(of: entry.item.kind) else { return nil }
        let needs = entry.actions.reduce(into: entry.precondition.needs(registry: registry, kind: entry.item.kind)) {
            let definition = registry.action($1.action, for: entry.item.kind)
            $0.formUnion(definition?.needs ?? [])
            if entry.command != nil { $0.formUnion(definition?.commandNeeds ?? []) }
        }
        let refreshed = try await reader.refresh(entry.item, needs: needs, in: &context)
        facts?.keep(context.repositories)
        guard let fresh = refreshed else { return nil }
        var repository = fresh.repository
        activity?.annotate(&repository)
        return ItemContext(
            item: fresh.item, repository: repository, now: now, me: me, registry: registry, automation: automation)
    }

    /// Forgets what was read of a repository, so the next context reads it afresh (after a write
    /// to one of its items whose outcome is unknown).
    mutating func forget(_ path: String) {
        if let path = try? RepositoryPath(path) {
            context.repositories[path] = nil
            facts?.keep(context.repositories)
        }
    }
}
