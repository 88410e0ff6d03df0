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
        let body = comment.body.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let match = body.wholeMatch(of: #/retargeted from (.+) to (.+): !(\d+) merged/#),
            let parent = Int(match.output.3)
        else { return nil }
        self.init(from: String(match.output.1), to: String(match.output.2), parent: parent, at: comment.createdAt)
    }

    /// The newest retarget note among `comments`; `nil` when the MR was never retargeted by a merge.
    public static func newest(in comments: [GitbayKit.Comment]) -> RetargetNote? {
        MarkedComments.chronological(comments).lazy.reversed().compactMap(RetargetNote.init).first
    }
}
