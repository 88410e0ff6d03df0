import Foundation
import GitbayKit

/// Something an account did to one item, and when, as far as the bot can put a name to it.
///
/// gitbay's `updated_at` says when an item moved, never who moved it, and labels, assignees and
/// milestones do not move it at all. A stale bot that cannot tell a maintainer's edit or label
/// removal from its own would fight that maintainer, so what the feed (each event names its
/// actor) and the bot's own journal say is carried beside the items, for the plugins' fields to
/// weigh (`quiet`, a label's age).
public struct ItemActivity: Sendable, Hashable, Codable {
    /// Where the bot learnt of it.
    public enum Source: String, Sendable, Hashable, Codable {
        /// gitbay's activity feed: `kind` is the event's (`issue.labeled`), `labels` its data's.
        case feed
        /// The bot's own journal: `kind` is the action's name (`add-label`), `argv` its command.
        case journal
    }

    public var at: Date
    /// Who did it: the event's actor, or the bot's account for its journal.
    public var actor: String
    public var kind: String
    public var source: Source
    /// A `*.labeled` event's data: the item's whole label set after the change.
    public var labels: [String]?
    /// A journal entry's command, from which its plugin reads what it changed.
    public var argv: [String]?
    /// The feed event's id, which orders events recorded at the same instant.
    public var id: Int?

    public init(
        at: Date, actor: String, kind: String, source: Source, labels: [String]? = nil, argv: [String]? = nil,
        id: Int? = nil
    ) {
        self.at = at
        self.actor = actor
        self.kind = kind
        self.source = source
        self.labels = labels
        self.argv = argv
        self.id = id
    }

    /// A feed event as activity, `nil` when it names no actor (gitbay records none for some).
    public init?(_ event: FeedEvent) {
        guard let actor = event.actor else { return nil }
        self.init(
            at: event.createdAt, actor: actor, kind: event.kind, source: .feed, labels: event.labels, id: event.id)
    }
}

/// Which item of a repository an activity is about.
public struct ItemActivityKey: Sendable, Hashable {
    public var kind: ItemKind
    public var number: Int

    public init(kind: ItemKind, number: Int) {
        self.kind = kind
        self.number = number
    }
}
