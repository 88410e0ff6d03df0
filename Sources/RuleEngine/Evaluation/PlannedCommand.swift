import Foundation

/// The command in a comment that a plan entry answers: who gave it, where, and with what.
///
/// `plan`, `explain` and `history` show it, and `apply` aims its acknowledgement and its reply at
/// the comment by ``comment``; a command is answered once per rule and comment.
public struct PlannedCommand: Sendable, Hashable, Codable {
    /// The comment's id (gitbay's row id, unique among one kind's comments).
    public var comment: Int
    public var author: String
    /// The command's line as written, such as `/label bug`.
    public var text: String
    /// Which line of the comment, from 1.
    public var line: Int
    /// When the comment was written.
    public var at: Date
    /// Each parameter's values, as the pattern took them; empty when they do not fit it.
    public var arguments: [String: [String]]
    /// Why the command is not done, as the reply says; `nil` when the entry carries it out.
    public var refusal: String?

    public init(
        comment: Int, author: String, text: String, line: Int, at: Date, arguments: [String: [String]] = [:],
        refusal: String? = nil
    ) {
        self.comment = comment
        self.author = author
        self.text = text
        self.line = line
        self.at = at
        self.arguments = arguments
        self.refusal = refusal
    }

    /// One line for plans, `explain` and history: `/label bug by @alice (comment 17; labels: bug)`,
    /// the arguments as the pattern took them (an optional one left out is not shown), so a
    /// surprising action shows what it was given.
    public var summary: String {
        let given = arguments.sorted { $0.key < $1.key }.filter { !$0.value.allSatisfy(\.isEmpty) }
            .map { "\($0.key): \($0.value.joined(separator: ", "))" }
        return "\(text) by @\(author) (" + (["comment \(comment)"] + given).joined(separator: "; ") + ")"
    }
}
