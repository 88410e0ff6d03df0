import Foundation

/// One item with everything a field or action may consult: its repository, the time and the bot.
public struct ItemContext: Sendable {
    public var item: Item
    public var repository: RepositoryState
    public var now: Date
    public var me: String

    public init(item: Item, repository: RepositoryState, now: Date, me: String) {
        self.item = item
        self.repository = repository
        self.now = now
        self.me = me
    }

    /// Whether every need in `needs` has been read, for the item or its repository.
    public func knows(_ needs: Set<ReadNeed>) -> Bool {
        needs.allSatisfy { item.known.contains($0) || repository.known.contains($0) }
    }
}
