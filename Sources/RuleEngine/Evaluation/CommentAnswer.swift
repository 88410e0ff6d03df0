import CommentCommands
import GitbayKit

/// The bot's answer to one comment: every entry that carries out or refuses one of its commands,
/// and the one acknowledgement that marks them all answered.
///
/// A comment may give several commands (`/label bug` and `/assign me`), to several rules, and
/// several copies of one. Each command gets an entry of its own rule (its conditions, its limit,
/// its history), but the comment is answered once: the bot's 👍 on it reads as "every command
/// here is answered" to every later run, and a refusal is one reply listing what was not done.
/// So the comment's entries are one unit. This type is that unit, and the one place that knows
/// it: the plan's guards hold it whole, the run cap takes it whole, the applier sends it in one
/// go with the acknowledgement last and only once every command of it is done or answered, and a
/// watcher queues it as one job.
///
/// An entry of a rule without a command is a unit on its own (``PlanUnit``).
public struct CommentAnswer: Sendable, Hashable {
    /// Which comment: the item it is on and its id, which is unique among one kind's comments.
    public struct Key: Sendable, Hashable {
        public let item: String
        public let comment: Int

        public init(item: String, comment: Int) {
            self.item = item
            self.comment = comment
        }
    }

    public let key: Key
    /// The indices of its entries in the plan, in plan order.
    public private(set) var entries: [Int]

    /// The answers in `entries`, in the order of their first entry.
    public static func all(in entries: [PlanEntry]) -> [CommentAnswer] {
        var positions: [Key: Int] = [:]
        var answers: [CommentAnswer] = []
        for index in entries.indices where entries[index].answersCommand {
            guard let key = entries[index].answerKey else { continue }
            if let position = positions[key] {
                answers[position].entries.append(index)
            } else {
                positions[key] = answers.count
                answers.append(CommentAnswer(key: key, entries: [index]))
            }
        }
        return answers
    }

    /// Why the comment `entry` answers no longer asks for its command on a fresh read of its item
    /// (`context`): it is gone, or no longer gives that command line; `nil` while it does, for an
    /// entry without a command, and when the read does not show the comments.
    ///
    /// `apply` asks before each entry's writes: a command taken back is not carried out, and its
    /// comment gets neither the 👍 nor a reply saying it "was not done". Every entry of the comment
    /// finds the same, so the answer is dropped whole. gitbay has no command to delete or edit a
    /// comment, but one goes when gitbay is restored from a backup taken before it.
    static func withdrawal(of entry: PlanEntry, in context: ItemContext, registry: PluginRegistry) -> String? {
        guard let command = entry.command, let commented = registry.commented(entry.item.kind),
            context.knows(commented.commandNeeds)
        else { return nil }
        guard let comment = commented.comments(of: context.item).first(where: { $0.id == command.comment }) else {
            return "the comment is gone"
        }
        let markup: CommentMarkup = comment.bodyFormat == .org ? .org : .markdown
        let given = CommentCommandScanner.commands(in: comment.body, markup: markup)
        return given.contains { $0.text == command.text } ? nil : "the comment no longer gives \(command.text)"
    }

    /// Gives the comment its one acknowledgement, in its last entry that acts (none while one of
    /// its commands waits), and holds every entry of it when any is held: a 👍 on a comment one of
    /// whose commands waits would mark that command answered for good.
    ///
    /// - Parameter isAcknowledgement: whether an action of an entry is its command's acknowledgement.
    static func settle(
        _ entries: inout [PlanEntry], isAcknowledgement: (PlannedAction, PlanEntry) -> Bool
    ) {
        for answer in all(in: entries) {
            let acknowledging = answer.entries.filter { index in
                entries[index].actions.contains { isAcknowledgement($0, entries[index]) }
            }
            // A command that waits (a merge whose gates do not pass) keeps the 👍 back altogether.
            let waits = answer.entries.contains { index in entries[index].actions.contains { $0.status == .waiting } }
            for index in waits ? acknowledging : acknowledging.dropLast() {
                let entry = entries[index]
                entries[index].actions.removeAll { isAcknowledgement($0, entry) }
            }
            var held: String?
            for index in answer.entries where held == nil {
                held = entries[index].actions.first { $0.status == .held }?.note
            }
            if let held {
                for index in answer.entries {
                    entries[index].hold(note: "held with another command of the same comment: \(held)")
                }
            }
        }
    }
}
