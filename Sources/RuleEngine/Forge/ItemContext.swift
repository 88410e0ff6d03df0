import Foundation

/// One item with everything a field or action may consult: its repository, the time and the bot.
///
/// A class, not a struct: evaluation hands the same context to every condition of every rule,
/// and copying the item and its repository (a score of reference-counted fields) each time was
/// the largest cost of evaluating a big forge. It is immutable, so sharing it is safe.
public final class ItemContext: Sendable {
    public let item: Item
    public let repository: RepositoryState
    public let now: Date
    public let me: String
    /// The accounts besides ``me`` whose activity is automation (see ``ForgeState/automation``).
    public let automation: Set<String>
    /// What has been read of the item and of its repository together, one bit per ``ReadNeed``.
    private let known: ReadNeed.Mask
    /// The bits the registry gives the needs.
    private let bits: ReadNeed.Bits

    /// The context of `item`, with the needs as `registry` gives them bits; with `listing`, the
    /// item is taken to know only those of its needs (what its listing told), whatever else was read.
    public convenience init(
        item: Item, repository: RepositoryState, now: Date, me: String, registry: PluginRegistry,
        automation: Set<String> = [], listing: Set<ReadNeed>? = nil
    ) {
        self.init(
            item: item, repository: repository, repositoryKnown: registry.bits.mask(read: repository.known), now: now,
            me: me, bits: registry.bits, automation: automation, listing: listing)
    }

    /// The context of `item`, what its repository knows already as bits: evaluation turns that
    /// into bits once per repository, where doing it for each item was a few percent of a plan.
    init(
        item: Item, repository: RepositoryState, repositoryKnown: ReadNeed.Mask, now: Date, me: String,
        bits: ReadNeed.Bits, automation: Set<String>, listing: Set<ReadNeed>? = nil
    ) {
        self.item = item
        self.repository = repository
        self.now = now
        self.me = me
        self.automation = automation
        self.bits = bits
        let itemKnown = listing.map { item.known.intersection($0) } ?? item.known
        known = bits.mask(read: itemKnown).union(repositoryKnown)
    }

    /// Whether `account`'s activity is automation: the bot's own, or an account named in `bots:`.
    public func isAutomation(_ account: String) -> Bool {
        account == me || automation.contains(account)
    }

    /// Whether every need in `needs` has been read, for the item or its repository.
    public func knows(_ needs: Set<ReadNeed>) -> Bool {
        knows(bits.mask(needs))
    }

    /// Whether every need in `needs` has been read: the test evaluation makes per condition.
    public func knows(_ needs: ReadNeed.Mask) -> Bool {
        known.isSuperset(of: needs)
    }
}
