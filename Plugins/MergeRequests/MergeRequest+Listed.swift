import Foundation
import GitbayKit

extension MergeRequest {
    /// A merge request known only from its `mr list --q` row: what `mr show` adds (the source,
    /// target and head, the stack, the conversation) is empty until a detail read or the read
    /// cache fills it in, and the fields that consult it say so (`needs: [.detail]`).
    init(listed row: QueryItem) {
        self.init(
            number: row.number, title: row.title, state: row.mergeRequestState, draft: row.draft, author: row.author,
            source: "", targetRef: "", headSHA: "", milestone: row.milestone, createdAt: row.createdAt,
            updatedAt: row.updatedAt)
    }

    /// `self`, a listed merge request, with what only `cached`, its detail from an earlier run,
    /// holds: everything but the row's own fields, which are this run's, the labels, which no
    /// version covers, and the branches, head and stack when this run's repository listing gave
    /// them (a build's surroundings): two changes within one timestamp leave the version as it was.
    func restoring(_ cached: MergeRequest) -> MergeRequest {
        var restored = cached
        if !headSHA.isEmpty {
            restored.source = source
            restored.targetRef = targetRef
            restored.headSHA = headSHA
            restored.stackedOn = stackedOn
            restored.queued = queued
        }
        restored.title = title
        restored.state = state
        restored.draft = draft
        restored.author = author
        restored.milestone = milestone
        restored.createdAt = createdAt
        restored.updatedAt = updatedAt
        restored.labels = labels
        return restored
    }
}
