import Foundation
import GitbayKit

/// Who did what to the items of a run, by repository and item: the feed's events kept in the
/// ``ActivityLog`` and read since its position, and the bot's own applied writes from its journal.
///
/// gitbay's `updated_at` never says who moved it and labels do not move it at all
/// (docs/gitbay/domain.md#activity-by-people); the feed names every event's actor, so a person
/// removing the label the bot manages, or editing the item, is told apart from the bot.
public struct ActivityHistory: Sendable, Hashable {
    public var items: [RepositoryPath: [ItemActivityKey: [ItemActivity]]] = [:]
    /// The feed requests it took.
    public var requests = 0
    /// One line for `--verbose`: what the feed read brought, or why its events could not be kept.
    public var note: String?
    /// Every feed event known, kept by earlier runs and read by this one: what tells the rolling
    /// sweep which repositories changed (``RepositorySweep``).
    public var events: [FeedEvent] = []
    /// Whether ``events`` hold everything since the last run: the feed reached back to the position
    /// kept (or was not read, a `watch` pass's own poll having read it), and what it read was kept.
    public var complete = true
    /// The bot's own applied writes, from its journal: what the copies kept before them may miss
    /// (``OwnWrites``).
    public var writes = OwnWrites()
    /// The bodies of the bot's replies gitbay refused, with their markers, by repository
    /// (``RepositoryState/refusedReplies``).
    public var refusedReplies: [RepositoryPath: [String]] = [:]

    public init() {}

    /// The activity `state` was read with, to re-check its plan's entries the same way.
    public init(of state: ForgeState) {
        for repository in state.repositories where !repository.activity.isEmpty {
            items[repository.path] = repository.activity
        }
    }

    /// How many pages of 200 events a run with no position reads back: far enough for the
    /// recent past, without paging through a large forge's whole history on the first run.
    public static let firstReadPages = 5
    /// How many pages a run reads back to its position before it gives up on what lies between
    /// (a forge busier than that since the last run); what it read is kept all the same.
    public static let catchUpPages = 20

    /// Whether any of `rules` consults what people did: a field or action that reads an item's
    /// detail (its conversation) or its `updated_at`, or a command, whose comment the feed
    /// tells of on an item no listing shows (`ReadSession.readCommented`).
    public static func isNeeded(by rules: [Rule], registry: PluginRegistry) -> Bool {
        rules.contains { rule in
            guard rule.command == nil else { return true }
            let needs = rule.condition.needs(registry: registry, kind: rule.kind).union(
                rule.actionNeeds(registry: registry))
            return needs.contains(.detail) || needs.contains(.activity)
        }
    }

    /// Reads the feed since `log`'s position into it (unless `readFeed` is false: a `watch` pass
    /// keeps what its own poll read), then answers everything kept with the bot's applied writes,
    /// for the kinds of `registry`.
    ///
    /// A feed that cannot be read fails the run, as any read does: acting without knowing who
    /// removed a label is what this is here to prevent. A log or journal that cannot be read or
    /// written costs what it would have told, never the run.
    public static func read(
        registry: PluginRegistry, reader: any ForgeReader, log: any ActivityLog, me: String, readFeed: Bool = true
    ) async throws -> ActivityHistory {
        var history = ActivityHistory()
        var fresh: [FeedEvent] = []
        if readFeed {
            let position = try await log.activityPosition()
            let pages = position == nil ? firstReadPages : catchUpPages
            let feed = try await FeedRead.read(after: position, reader: reader, pages: pages)
            history.requests = feed.requests
            history.complete = position != nil && feed.reachedPosition
            do {
                try await log.keepActivity(feed.events, position: feed.newest ?? position ?? 0)
            } catch {
                // Not kept, the events still count for this run; the next one reads them again.
                fresh = feed.events
                history.note = "activity: \(feed.events.count) feed events could not be kept: \(error)"
            }
            history.note =
                history.note
                ?? "activity: feed since "
                + (position.map { "event \($0)" } ?? "the last \(pages * FeedRead.pageSize) events")
                + ", \(feed.events.count) new"
                + (feed.wentBack
                    ? " (its newest event is older than that: gitbay reissued deleted events' ids, so what happened "
                        + "is not known)"
                    : feed.reachedPosition ? "" : " (it reaches back no further; what happened before is not known)")
        }
        let kept: [FeedEvent]
        do {
            kept = try await log.keptActivity()
        } catch {
            kept = []
            history.complete = false
        }
        history.events = kept + fresh
        history.add(history.events, registry: registry)
        let applied = (try? await log.appliedWrites()) ?? []
        history.writes = OwnWrites(journal: applied, registry: registry)
        for record in applied {
            guard let reference = registry.reference(parsing: record.item) else { continue }
            let activity = ItemActivity(
                at: record.at, actor: me, kind: record.action, source: .journal, argv: record.argv)
            history.items[reference.repository, default: [:]][
                ItemActivityKey(kind: reference.kind, number: reference.number), default: []
            ].append(activity)
        }
        // gitbay refusing a reply to a command does not change (an archived repository takes no
        // comment): the reply it refused settles the command as the reply on gitbay would have,
        // or every run would try the command and its reply again.
        for record in (try? await log.refusedWrites()) ?? [] {
            guard let body = record.stdin, body.contains(Evaluator.markerPrefix),
                let reference = registry.reference(parsing: record.item)
            else { continue }
            history.refusedReplies[reference.repository, default: []].append(body)
        }
        history.sort()
        return history
    }

    /// The activity of feed `events` alone: a forge-state file's.
    public init(events: [FeedEvent], registry: PluginRegistry) {
        add(events, registry: registry)
        sort()
    }

    /// Files each event under the item its kind's plugin says it is about
    /// (``WatchedKind/watchEffect(of:)``): the engine knows no event kind itself.
    private mutating func add(_ events: [FeedEvent], registry: PluginRegistry) {
        for event in events {
            guard let activity = ItemActivity(event), let number = event.number else { continue }
            for kind in registry.kinds {
                guard registry.watching(of: kind)?.watchEffect(of: event) == .item(number) else { continue }
                items[event.repo, default: [:]][ItemActivityKey(kind: kind, number: number), default: []]
                    .append(activity)
            }
        }
    }

    /// Each item's activity oldest first, events of one instant in the feed's order.
    private mutating func sort() {
        for (path, byItem) in items {
            for (key, activity) in byItem {
                items[path]?[key] = activity.sorted { ($0.at, $0.id ?? 0) < ($1.at, $1.id ?? 0) }
            }
        }
    }

    /// Sets the repository's activity.
    public func annotate(_ repository: inout RepositoryState) {
        repository.activity = items[repository.path] ?? [:]
        repository.refusedReplies = refusedReplies[repository.path] ?? []
    }

    /// Gives `state` the feed `events` (a forge-state file's, a snapshot's) and each repository
    /// the activity they tell.
    public static func carry(_ events: [FeedEvent], into state: inout ForgeState, registry: PluginRegistry) {
        let history = ActivityHistory(events: events, registry: registry)
        state.feed = events
        for index in state.repositories.indices {
            history.annotate(&state.repositories[index])
        }
    }
}
