import Foundation
import GitbayKit

/// What one feed event does to the items of one kind, as the kind's plugin judges it.
public enum WatchEffect: Sendable, Hashable {
    /// Nothing of this kind can have changed.
    case none
    /// The item with this number (in the event's repository) may have changed.
    case item(Int)
    /// Any item of this kind in the event's repository may have changed.
    case wholeRepository
}

/// What a batch of feed events can affect: the items to read again and judge, by reference, and
/// per repository the kinds whose every item must be.
///
/// Each kind's plugin says what an event does to its items (``WatchedKind/watchEffect(of:)``),
/// so the watcher knows no event kind itself. The bot's own events trigger nothing: its writes are
/// journaled and dropped their cached details already.
public struct WatchTargets: Sendable, Hashable {
    /// `owner/name#12`, `owner/name!3`: the items named by an event.
    public var items: Set<String> = []
    /// The kinds of which every item in the repository is affected.
    public var wholeKinds: [RepositoryPath: Set<ItemKind>] = [:]
    /// The events that were the bot's own.
    public var ownEvents = 0
    /// The repositories whose default branch an event may have moved (a merge, a push), whose own
    /// rules file an events pass reads again; the bot's own merges included, which move it as well.
    public var ruleFiles: Set<RepositoryPath> = []

    public init() {}

    /// The repositories anything affected lives in.
    public var repositories: Set<RepositoryPath> {
        Set(wholeKinds.keys).union(itemRepositories.values)
    }

    /// Each affected item's repository, by reference.
    private var itemRepositories: [String: RepositoryPath] = [:]

    public var isEmpty: Bool { items.isEmpty && wholeKinds.isEmpty && ruleFiles.isEmpty }

    /// The targets of `events` for the rules' `kinds`, leaving out those `me` caused.
    public static func of(
        _ events: [FeedEvent], me: String, kinds: [ItemKind], registry: PluginRegistry
    ) -> WatchTargets {
        var targets = WatchTargets()
        for event in events {
            if ReadContext.movesDefaultBranch(event) { targets.ruleFiles.insert(event.repo) }
            guard event.actor != me else {
                targets.ownEvents += 1
                continue
            }
            for kind in kinds {
                // A kind no plugin reads cannot be narrowed: take the whole repository.
                let effect = registry.watching(of: kind)?.watchEffect(of: event) ?? .wholeRepository
                switch effect {
                case .none:
                    break
                case .item(let number):
                    let reference =
                        registry.reference(to: String(number), in: event.repo, kind: kind)?.description
                        ?? "\(event.repo) \(number)"
                    targets.items.insert(reference)
                    targets.itemRepositories[reference] = event.repo
                case .wholeRepository:
                    targets.wholeKinds[event.repo, default: []].insert(kind)
                }
            }
        }
        return targets
    }

    /// The probes worth polling for rules of `kinds`: those whose events' family one of them
    /// watches, a kind no plugin judges watching every family.
    public static func probes(
        for kinds: [ItemKind], registry: PluginRegistry
    ) -> [any QuietChangeProbe] {
        registry.probes.filter { probe in
            let family = FeedEvent.family(of: probe.eventKind)
            return kinds.contains { registry.watching(of: $0)?.watches(family: family) ?? true }
        }
    }

    /// `rules` narrowed to the repositories something happened in, each to those in its scope.
    ///
    /// A rule whose scope holds none of them is left out; a pass then lists only those repositories.
    public func scoped(_ rules: [Rule]) -> [Rule] {
        let affected = repositories.sorted()
        return rules.compactMap { rule in
            let terms = affected.filter { rule.scope.contains($0) }.map { RuleScope.Term.repository($0.description) }
            guard !terms.isEmpty else { return nil }
            var rule = rule
            rule.scope = RuleScope(terms: terms)
            return rule
        }
    }

    /// Whether `item` (of `kind`, in `repository`) is among the targets.
    public func contains(_ reference: String, kind: ItemKind, in repository: RepositoryPath) -> Bool {
        items.contains(reference) || wholeKinds[repository]?.contains(kind) == true
    }
}
