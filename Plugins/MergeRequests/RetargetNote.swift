import Foundation
import GitbayKit
import RuleEngine

/// The system comment gitbay writes on a stacked merge request when the MR below it merges:
/// `retargeted from <A-source> to <A-target>: !<A> merged`.
///
/// gitbay records no event for these automatic retargets, so this comment is the only durable
/// trace on the child that its parent landed.
public struct RetargetNote: Sendable, Hashable {
    /// The parent's source branch, which the child targeted until the parent merged.
    public var from: String
    /// The parent's target branch, which the child targets since.
    public var to: String
    /// The parent merge request's number.
    public var parent: Int
    /// When the server wrote the comment.
    public var at: Date

    public init(from: String, to: String, parent: Int, at: Date) {
        self.from = from
        self.to = to
        self.parent = parent
        self.at = at
    }

    /// The note a comment carries; `nil` unless it is a system comment of exactly that form.
    public init?(_ comment: GitbayKit.Comment) {
        guard comment.isSystem else { return nil }
        // Trimming goes through Foundation; server-written notes need none, so skip it when it would do nothing.
        let untrimmed = comment.body.unicodeScalars
        let spaces = CharacterSet.whitespacesAndNewlines
        let trimmed =
            untrimmed.first.map(spaces.contains) == false && untrimmed.last.map(spaces.contains) == false
            ? comment.body : comment.body.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let (from, to, parent) = Self.parse(trimmed)
        else { return nil }
        self.init(from: from, to: to, parent: parent, at: comment.createdAt)
    }

    /// Reads `retargeted from A to B: !N merged` as the regex `retargeted from (.+) to (.+): !(\d+) merged`
    /// would, greedy groups included (A ends at the last ` to ` that leaves B non-empty).
    ///
    /// Written by hand because a regex literal is compiled on every call, which made this note
    /// the bulk of evaluating merge-request rules.
    private static func parse(_ body: String) -> (String, String, Int)? {
        let prefix = "retargeted from "
        let suffix = " merged"
        guard body.hasPrefix(prefix), body.hasSuffix(suffix), !body.contains(where: \.isNewline) else { return nil }
        let middle = Array(body.dropFirst(prefix.count).dropLast(suffix.count))
        // The number follows the last ": !"; an earlier one would leave ": !" among the digits.
        let marker: [Character] = [":", " ", "!"]
        guard middle.count >= marker.count,
            let start = stride(from: middle.count - marker.count, through: 0, by: -1).first(where: {
                Array(middle[$0..<$0 + marker.count]) == marker
            })
        else { return nil }
        let digits = middle[(start + marker.count)...]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let parent = Int(String(digits))
        else { return nil }
        let branches = middle[..<start]
        let separator: [Character] = [" ", "t", "o", " "]
        guard branches.count >= separator.count + 2,
            let split = stride(from: branches.count - separator.count - 1, through: 1, by: -1).first(where: {
                Array(branches[$0..<$0 + separator.count]) == separator
            })
        else { return nil }
        return (String(branches[..<split]), String(branches[(split + separator.count)...]), parent)
    }

    /// The newest retarget note among `comments`; `nil` when the MR was never retargeted by a merge.
    public static func newest(in comments: [GitbayKit.Comment]) -> RetargetNote? {
        MarkedComments.chronological(comments).lazy.reversed().compactMap(RetargetNote.init).first
    }
}
