import Foundation
import GitbayKit

extension ReadSession {
    /// Reads whole the items a person commented on within the command window, as the feed tells
    /// (``CommentedKind/commentEvent``), that no listing brought: a closed issue or a merge request
    /// whose source branch is gone, under command rules that select open ones.
    ///
    /// A command rule's conditions decide only its reply, so a command there must still be
    /// answered (with the condition that fails), and once: the reply's marker settles it. Listing
    /// every state instead would read every closed item's page each run, and a merge request's
    /// comment moves nothing its row shows, so each would cost an `mr show`; the feed names just
    /// the few commented ones, one `show` each. A comment the feed no longer reaches (the first
    /// run's five pages, a gap) is not seen there, which docs/rules.md says.
    mutating func readCommented(rules: [Rule], activity: ActivityHistory, now: Date, me: String) async throws {
        let since = now.addingTimeInterval(-commandWindow)
        for kind in registry.kinds {
            let commandRules = rules.filter { $0.kind == kind && $0.command != nil }
            guard !commandRules.isEmpty, let commented = registry.commented(kind),
                let reading = registry.reading(of: kind)
            else { continue }
            let needs = commandRules.reduce(into: commented.commandNeeds) { needs, rule in
                needs.formUnion(rule.condition.needs(registry: registry, kind: kind))
                needs.formUnion(rule.actionNeeds(registry: registry))
            }
            var read: Set<ItemReference> = []
            for event in activity.events where event.kind == commented.commentEvent && event.createdAt >= since {
                guard let number = event.number, let actor = event.actor, actor != me, !automation.contains(actor),
                    let repository = context.repositories[event.repo], !repository.archived,
                    commandRules.contains(where: { $0.scope.contains(event.repo) }),
                    !registry.items(of: kind, in: repository).contains(where: { $0.number == number })
                else { continue }
                guard let reference = registry.reference(to: String(number), in: event.repo, kind: kind) else {
                    continue
                }
                if let only, !only.contains(reference.description, kind: kind, in: event.repo) { continue }
                guard read.insert(reference).inserted else { continue }
                try await reading.readWhole(reference, needs: needs, into: &context)
            }
            if !read.isEmpty {
                context.note(
                    "\(registry.noun(of: kind))s commented outside the listing: \(read.count) read whole",
                    requests: read.count)
            }
        }
    }
}
