import GitbayKit

/// A kind whose items carry comments, in which people can give the bot commands (`command:`).
///
/// Only such kinds may have rules with a command: a build has no comments to give one in.
public protocol CommentedKind: Sendable {
    /// The comments of `item` as read, oldest first; empty for an item of another kind.
    func comments(of item: Item) -> [Comment]
}
