import Foundation
import GitbayKit
import RuleEngine

/// `label_age.LABEL` and `comment_age.RULE`: how long a label has been on an item and how long
/// ago a rule's notice was posted, defined once for issues and merge requests.
///
/// "Close 7 days after the notice" must count from the notice or the label, not from the bot's
/// newest comment of any kind: an older question of the bot's would make the close fire at once.
public enum AgeFamilies {
    /// The two families of a kind whose items are `noun`s, with the item's labels and conversation;
    /// `cached` when the kind's read cache keeps the comments current.
    public static func families(
        noun: String, cached: Bool, labels: @escaping @Sendable (ItemContext) -> [String]?,
        conversation: @escaping @Sendable (ItemContext) -> Conversation?
    ) -> [FieldFamily] {
        [
            FieldFamily(
                "label_age", parameter: "LABEL", .duration, needs: [.labels, .activity], absenceWaits: true,
                doc: "Time since LABEL was last put on the \(noun) (`label_age.stale`): from the feed's label events, "
                    + "else from the bot's journal when it added it; absent while the \(noun) lacks it, unknown when "
                    + "nobody can say when it came. A rule comparing it waits meanwhile, and the plan counts it."
            ) { label, context in
                guard let labels = labels(context), labels.contains(label) else { return .absent }
                guard
                    let added = labelAdded(
                        label, activity: context.repository.activity(of: context.item), me: context.me)
                else { return .unknown }
                return .duration(max(0, context.now.timeIntervalSince(added)))
            },
            FieldFamily(
                "comment_age", parameter: "RULE", .duration, needs: [.detail], cached: cached, absenceWaits: true,
                namesRule: true,
                doc: "Time since the bot's newest comment for rule RULE on the \(noun) (`comment_age.mark-stale`, "
                    + "found by the rule's hidden marker); absent when it has none. A rule comparing it waits "
                    + "meanwhile, and the plan counts it. RULE must be a rule of the rules read, in any of their "
                    + "files: a name none has is an error."
            ) { rule, context in
                guard let conversation = conversation(context) else { return .absent }
                let marker = "<!-- gitbay-bot:rule=\(rule) item="
                var newest: Date?
                for comment in conversation.comments
                where !comment.isSystem && comment.author == context.me && comment.body.contains(marker) {
                    newest = max(newest ?? comment.createdAt, comment.createdAt)
                }
                return newest.map { .duration(max(0, context.now.timeIntervalSince($0))) } ?? .absent
            },
        ]
    }

    /// When `label` was last put on the item, as far as `activity` tells; `nil` when unknown.
    ///
    /// The feed's label events carry the whole set after each change (`internal/control/issue.go`
    /// `runIssueLabel`), so an addition is an event holding the label after one without it. An
    /// event holding it with none known before says only that it came earlier, unless it is the
    /// bot's own and the journal says the bot added that label: then it is the bot's addition, in
    /// the server's time. The feed's times are the server's, like the comments' the other fields
    /// read, so they win; the journal's (the bot's clock) serve when the feed says nothing, until
    /// the feed shows the label removed. A label put back starts its clock again.
    static func labelAdded(_ label: String, activity: [ItemActivity], me: String) -> Date? {
        let journalAdds = activity.filter { entry in
            entry.source == .journal && entry.kind == "add-label" && added(by: entry.argv ?? []).contains(label)
        }
        var fromFeed: Date?
        var lastRemoval: Date?
        var holding: Bool?
        for event in activity where event.source == .feed && event.kind.hasSuffix(".labeled") {
            guard let labels = event.labels else { continue }
            if labels.contains(label) {
                if holding == false || (holding == nil && event.actor == me && !journalAdds.isEmpty) {
                    fromFeed = event.at
                }
                holding = true
            } else {
                fromFeed = nil
                lastRemoval = event.at
                holding = false
            }
        }
        if let fromFeed { return fromFeed }
        return journalAdds.filter { entry in lastRemoval.map { entry.at > $0 } ?? true }.map(\.at).max()
    }

    /// The labels an `issue label` or `mr label` command adds: each `--add` value.
    private static func added(by argv: [String]) -> [String] {
        zip(argv, argv.dropFirst()).filter { $0.0 == "--add" }.map(\.1)
    }
}
