import Foundation
import GitbayKit
import RuleEngine

/// Merge requests in the read cache: `mr show` kept under what the listing says of it (state,
/// draft) and its `updated_at`.
///
/// gitbay moves a merge request's `updated_at` on an edit, a draft change, a new head, a retarget
/// and a state change (`internal/store/mrs.go`: `UpdateMRText`, `SetMRDraft`, `UpdateMRHead`,
/// `SetMRTarget`, `MarkMerged`, `MarkClosed`, `SetMRState`), but not on a comment (`AddMRComment`
/// is a plain insert), a review, a label or a status. So only what the version covers is declared
/// cached: the stack's landing (its retarget note is written by the merge that retargets the
/// child) and `ready`'s check of the bot's own marker; people's comments, reviews, checks and
/// labels are always read fresh.
extension MergeRequestReader: CachedDetails {
    /// 2 since the rows come from `mr list --q`, which carries no target or head: a version of
    /// format 1 named them.
    var cacheFormat: Int { 2 }

    func cacheVersion(of item: Item) -> String? {
        guard let record = item.box(as: MergeRequestRecord.self)?.record, record.known.contains(.activity),
            let updatedAt = record.mergeRequest.updatedAt
        else { return nil }
        let mr = record.mergeRequest
        return [mr.state.rawValue, "\(mr.draft)", "\(updatedAt.timeIntervalSinceReferenceDate)"].joined(separator: "|")
    }

    func cachePayload(of item: Item) -> String? {
        guard let mergeRequest = item.box(as: MergeRequestRecord.self)?.record.mergeRequest,
            let data = try? JSONEncoder().encode(mergeRequest)
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The listed merge request with the detail's own parts from the cache (the source, target,
    /// head and stack among them); its labels stay unknown, since a label moves no version.
    func restoreDetails(_ payloads: [Int: String], in path: RepositoryPath, into context: inout ReadContext) -> Int {
        context.restoreDetails(payloads, of: kind, in: path, as: MergeRequest.self) {
            (record: inout MergeRequestRecord, cached) in
            guard cached.number == record.number else { return false }
            record.mergeRequest = record.mergeRequest.restoring(cached)
            record.known.insert(.detail)
            return true
        }
    }
}
