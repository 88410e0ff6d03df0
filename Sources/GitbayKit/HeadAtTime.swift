import Foundation

/// The head a merge request had at one moment, such as when a comment was written, as far as its
/// revisions can tell.
///
/// A writer's `/merge` may merge only the head the writer saw, and gitbay's `mr merge` cannot be
/// bound to a sha, so the bot compares the head at the comment's time with the head it would merge.
/// Any doubt is ``unknown(_:)``, which must read as "a different head": refusing a merge a person
/// can ask for again is cheap, merging a head nobody saw is not.
public enum HeadAtTime: Sendable, Hashable {
    /// The merge request's head was `sha`, recorded as revision `revision`, and no other head was
    /// recorded within the margin of the moment.
    case known(sha: String, revision: Int)
    /// The revisions cannot say which head it was.
    case unknown(HeadUncertainty)

    /// The head, when it is known.
    public var sha: String? {
        if case .known(let sha, _) = self { return sha }
        return nil
    }

    /// Whether the head at that moment is known to be `sha`; `false` for every doubt.
    public func isKnown(toBe sha: String) -> Bool {
        self.sha == sha
    }
}

/// Why a merge request's revisions cannot name its head at a moment.
public enum HeadUncertainty: Sendable, Hashable {
    /// gitbay answered no revision at all.
    case noRevisions
    /// The moment is before the first revision: a merge request older than gitbay's revision
    /// history, whose first revision is stamped when the history began (migration 0039).
    case beforeFirstRevision
    /// Revision `revision` was recorded within the margin of the moment, before or after it. Its
    /// head may already have been in `refs/merge-requests/<n>/head`, which `mr merge` merges, a
    /// moment before gitbay stamped it (`internal/control/refsupdated.go`, `RefsUpdated`).
    case recordedTooClose(revision: Int)
    /// The revisions' times go back, which gitbay never writes; the list cannot be trusted.
    case outOfOrder
}

extension MergeRequestRevision {
    /// How close to a moment a recorded head makes the head at that moment unknown: one second,
    /// so that a push and a comment in the same second are never ordered.
    public static let defaultMargin: TimeInterval = 1

    /// The head a merge request had at `moment`: the newest of `revisions` (oldest first, as
    /// `mr revisions` lists them) recorded more than `margin` before it, provided none was recorded
    /// within `margin` of it on either side.
    ///
    /// Revisions and comments are stamped by the same server clock in milliseconds
    /// (docs/gitbay/domain.md#revisions), so comparing them is sound; what they cannot tell is
    /// whether the writer saw a head recorded just before writing, hence the margin.
    public static func head(
        at moment: Date, in revisions: [MergeRequestRevision], margin: TimeInterval = defaultMargin
    ) -> HeadAtTime {
        guard !revisions.isEmpty else { return .unknown(.noRevisions) }
        if zip(revisions, revisions.dropFirst()).contains(where: { $1.createdAt < $0.createdAt }) {
            return .unknown(.outOfOrder)
        }
        let margin = max(margin, 0)
        if let close = revisions.first(where: { abs($0.createdAt.timeIntervalSince(moment)) <= margin }) {
            return .unknown(.recordedTooClose(revision: close.number))
        }
        guard let before = revisions.last(where: { $0.createdAt < moment }) else {
            return .unknown(.beforeFirstRevision)
        }
        return .known(sha: before.sha, revision: before.number)
    }
}
