import Foundation
import GitbayKit
import RuleEngine

/// What a thread of comments says about who acted on an item, and when: issues and merge
/// requests read it the same way.
extension Comment {
    /// Whether a person commented in `comments` after `date` (the system's notes, the bot's and
    /// the `bots:` accounts' comments aside): people have moved on, so what an earlier run left
    /// unfinished is left to the rules.
    public static func othersActed(in comments: [Comment], since date: Date, context: ItemContext) -> Bool {
        comments.contains { !$0.isSystem && !context.isAutomation($0.author) && $0.createdAt > date }
    }

    /// The last activity of an item whose `show` carries no `updated_at`: the planned time, moved
    /// forward by any comment since.
    public static func lastActivity(planned: Date?, comments: [Comment]) -> Date? {
        let newestComment = comments.filter { !$0.isSystem }.map(\.createdAt).max()
        switch (planned, newestComment) {
        case (let planned?, let comment?): return max(planned, comment)
        case (let planned?, nil): return planned
        case (nil, let comment): return comment
        }
    }
}
