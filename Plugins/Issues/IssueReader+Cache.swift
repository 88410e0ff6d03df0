import Foundation
import GitbayKit
import RuleEngine

/// Issues in the read cache: `issue show` kept under the `updated_at` that the `--q` listing gives.
///
/// gitbay moves an issue's `updated_at` on an edit, a close or reopen and every person's comment
/// (`internal/store/issues.go`: `UpdateIssueText`, `SetIssueState`, `AddIssueComment`), so the
/// body and the people's comments are as current as the listing while it is unchanged. Labels,
/// assignees and system comments do not move it: labels come from the listing's `label:` queries
/// whatever the cache holds, and `assignees` is declared fresh-only (docs/gitbay/domain.md#activity).
extension IssueReader: CachedDetails {
    var cacheFormat: Int { 1 }

    func cacheVersion(of item: Item) -> String? {
        guard let record = item.box(as: IssueRecord.self)?.record, record.known.contains(.activity),
            let updatedAt = record.issue.updatedAt
        else { return nil }
        return "\(updatedAt.timeIntervalSinceReferenceDate)"
    }

    func cachePayload(of item: Item) -> String? {
        guard let issue = item.box(as: IssueRecord.self)?.record.issue,
            let data = try? JSONEncoder().encode(issue)
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The listed issue with the detail's own parts (body, comments, assignees) from the cache.
    func restoreDetails(_ payloads: [Int: String], in path: RepositoryPath, into context: inout ReadContext) -> Int {
        context.restoreDetails(payloads, of: kind, in: path, as: Issue.self) { (record: inout IssueRecord, cached) in
            guard cached.number == record.number else { return false }
            record.issue.body = cached.body
            record.issue.bodyFormat = cached.bodyFormat
            record.issue.comments = cached.comments
            record.issue.reactions = cached.reactions
            record.issue.assignees = cached.assignees
            record.known.insert(.detail)
            return true
        }
    }
}
