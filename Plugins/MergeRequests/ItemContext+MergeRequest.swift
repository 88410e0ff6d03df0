import GitbayKit
import RuleEngine

extension ItemContext {
    /// The merge request this context is about; `nil` for another kind of item, which a merge
    /// request field answers as absent rather than guessing.
    var mergeRequest: MergeRequest? {
        if let box = item.box(as: MergeRequestRecord.self) { return box.record.mergeRequest }
        return nil
    }

    /// The statuses of the merge request's head, descriptions included, as far as they are known.
    ///
    /// Live, they are `status list`'s for the head as read (none when that read was of an older
    /// head); a forge-state file gives `checks` only, so offline they are the checks without
    /// descriptions.
    var headStatuses: [CommitStatus] {
        guard let record = item.box(as: MergeRequestRecord.self)?.record else { return [] }
        guard let read = record.headStatuses else {
            return record.mergeRequest.checks.map { CommitStatus(context: $0.context, state: $0.state) }
        }
        return read.sha == record.mergeRequest.headSHA ? read.statuses : []
    }

    /// The heads the merge request has had, oldest first, as far as they are read; empty otherwise.
    var revisions: [MergeRequestRevision] {
        item.box(as: MergeRequestRecord.self)?.record.revisions ?? []
    }
}
