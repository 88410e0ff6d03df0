import Foundation

/// What a plugin keeps of one item of a kind it declares (an issue as read, with what is known of
/// it): the engine reads only these few facts, the plugin's fields everything else.
public protocol ItemRecord: Sendable, Hashable {
    /// The item's number in its repository.
    var number: Int { get }
    /// A title for people.
    var title: String { get }
    /// When it last changed, as far as read.
    var updatedAt: Date? { get }
    /// What the bot has read of it.
    var known: Set<ReadNeed> { get }
    /// What names it in its repository: the number, or for a kind whose items have none (a
    /// milestone) its title; the last part of a reference to it.
    var key: String { get }
}

extension ItemRecord {
    public var key: String { String(number) }
}
