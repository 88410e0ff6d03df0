import Foundation
import GitbayKit

/// Everything a run knows of the forge at one instant: the input of evaluation.
///
/// It comes either from a live server through the read planner, or whole from a forge-state file
/// (offline mode), and evaluation is a pure function of it, the rules, `now` and `me`.
public struct ForgeState: Sendable, Hashable {
    /// The instant rules measure ages and idle times against.
    public var now: Date
    /// The bot's own account, which `@me` names.
    public var me: String
    /// The other accounts whose activity is automation, not people (`bots:` in gitbay-bot.yml):
    /// fields such as `quiet` pass over what they (and ``me``) do.
    public var automation: Set<String> = []
    /// The repositories, in path order.
    public var repositories: [RepositoryState]
    /// What the read planner left unread because a guard holds it back whatever it says (details
    /// of items beyond a rule's limit, say), one line per rule, which the plan reports with its guards.
    public var unread: [String]
    /// The feed's events a forge-state file or a snapshot carries, oldest first, so writing the
    /// state back to a file keeps who did what (the repositories' ``RepositoryState/activity``
    /// is derived from them).
    public var feed: [FeedEvent] = []
    /// What the listings alone told of each kind's items (the needs a listed row answers), for a
    /// state read from a server; `nil` for a forge-state file, which holds every item whole.
    ///
    /// A rule outside its schedule is judged on this alone: the details a run happened to read
    /// for other rules, or the read cache happened to hold, would otherwise decide which entries
    /// it lists, and a plan on a cold cache would differ from one on a warm cache.
    public var listed: [ItemKind: Set<ReadNeed>]?

    public init(now: Date, me: String, repositories: [RepositoryState], unread: [String] = []) {
        self.now = now
        self.me = me
        self.repositories = repositories.sorted { $0.path < $1.path }
        self.unread = unread
    }
}
