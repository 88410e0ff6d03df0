import GitbayKit
import RuleEngine

/// That the merge request a stacked MR was stacked on has landed, so the child is ready to review.
///
/// Derived purely from the child's comments and the repository's merge requests, per gitbay's
/// stacked-MR behaviour: on merge the server retargets the child, keeps its reviews, leaves its
/// draft flag alone and writes a ``RetargetNote``.
public struct StackLanding: Sendable, Hashable {
    /// The merged parent's number.
    public var parent: Int
    /// The retarget comment the landing was read from.
    public var note: RetargetNote

    public init(parent: Int, note: RetargetNote) {
        self.parent = parent
        self.note = note
    }

    /// The landing of `mergeRequest`'s stack, or `nil` when it has not landed.
    ///
    /// It has landed when the MR is open, its newest retarget note says `to` its current target
    /// (so nobody retargeted it since), and the parent named there is merged in `mergeRequests`.
    /// When the parent is not in that list, the note is trusted: gitbay writes it only on merge.
    public static func derive(
        for mergeRequest: MergeRequest, among mergeRequests: [MergeRequestRecord]
    )
        -> StackLanding?
    {
        derive(for: mergeRequest) { number in
            mergeRequests.first { $0.mergeRequest.number == number }?.mergeRequest.state
        }
    }

    /// The landing of `mergeRequest`'s stack, judged against `repository`'s merge requests
    /// through an index built once per repository state, so a field costs no scan per item.
    public static func derive(for mergeRequest: MergeRequest, in repository: RepositoryState) -> StackLanding? {
        let states = repository.memo.value { MergeRequestStates(repository.mergeRequests) }
        return derive(for: mergeRequest) { states.byNumber[$0] }
    }

    private static func derive(
        for mergeRequest: MergeRequest, parentState: (Int) -> MergeRequestState?
    ) -> StackLanding? {
        guard mergeRequest.state == .open, let note = RetargetNote.newest(in: mergeRequest.comments),
            note.to == mergeRequest.targetRef
        else { return nil }
        if let state = parentState(note.parent), state != .merged {
            return nil
        }
        return StackLanding(parent: note.parent, note: note)
    }
}
