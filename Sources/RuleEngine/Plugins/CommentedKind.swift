import Foundation
import GitbayKit

/// A kind whose items carry comments, in which people can give the bot commands (`command:`).
///
/// Only such kinds may have rules with a command: a build has no comments to give one in. The
/// plugin names the actions the engine answers a command with, so the engine knows no action of
/// its own.
public protocol CommentedKind: Sendable {
    /// The comments of `item` as read, oldest first; empty for an item of another kind.
    func comments(of item: Item) -> [Comment]
    /// Who opened `item`, for `allowed: [author]`; `nil` when not read.
    func author(of item: Item) -> String?
    /// What must be read before the comments show every command: a detail, and a fresh one where
    /// a comment does not move the version a cached detail is kept under.
    var commandNeeds: Set<ReadNeed> { get }
    /// The feed event gitbay records for a person's comment on an item of this kind
    /// (`issue.commented`), which names the items outside every listing that may hold a command.
    var commentEvent: String { get }
    /// Whether `item` may hold a comment written at or after `date`, judged from its listing (a
    /// comment moves an issue's `updated_at`); `true` when the listing cannot tell.
    func mayHoldComments(_ item: Item, since date: Date) -> Bool
    /// The action that acknowledges the command in comment `id` (a reaction on it), with the
    /// argument it takes; the argument names the comment, so an acknowledgement a stopped run left
    /// unfinished still finds it.
    func acknowledgement(of id: Int) -> (action: String, argument: [String: String])
    /// The action that answers a command with a comment (a refusal), taking the text.
    var reply: String { get }
    /// Whether the bot's applied write `argv` (from its journal) acknowledged comment `id`.
    func acknowledges(_ argv: [String], comment id: Int) -> Bool
    /// The comment ids a forge-state file's list of this kind gives.
    func commentIDs(in collection: any ItemCollection) -> [Int]
    /// The list with an id for each comment the file gives none, counting up from `next` in the
    /// file's order, as the simulator numbers them.
    func numberingComments(in collection: any ItemCollection, from next: inout Int) -> any ItemCollection
}
