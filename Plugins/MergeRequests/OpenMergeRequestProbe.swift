import Foundation
import GitbayKit
import RuleEngine

/// Finds pushes to the branches of open merge requests, which gitbay's feed never shows:
/// `mr list --q "<scope> is:mr is:open"` (200 rows a page), whose `updated_at` moves on a push
/// (`internal/store/mrs.go`, `UpdateMRHead`) and on every other change the listing shows.
///
/// A moved `updated_at` raises `mr.updated`, a kind of the bot's own that gitbay never records:
/// the merge request's plugin reads that merge request again, and the builds plugin the builds of
/// its repository (a push supersedes older builds). A change the feed also announced is judged
/// once, the targets being a set; one the bot's own event explains raises nothing
/// (``ProbeLook/changes(since:ownEvents:)``).
public struct OpenMergeRequestProbe: QuietChangeProbe {
    public init() {}

    public var eventKind: String { "mr.updated" }

    public func look(in scope: RuleScope, reader: any ForgeReader) async throws -> ProbeLook {
        let rows = try await reader.all(try MergeRequestQueryCommand(query: "\(scope) is:mr is:open"))
        let entries = rows.map { row in
            ProbeLook.Entry(
                key: "\(row.repo)!\(row.number)",
                version: GitbayTimestamp.format(row.updatedAt, precision: .milliseconds),
                event: Self.event(row))
        }
        return ProbeLook(entries: entries)
    }

    /// The `mr.updated` event a merge request's listing row stands for: the time its `updated_at` moved to.
    static func event(_ row: QueryItem) -> FeedEvent {
        FeedEvent(id: 0, repo: row.repo, actor: nil, kind: "mr.updated", number: row.number, createdAt: row.updatedAt)
    }
}
