import Foundation
import GitbayKit
import RuleEngine

/// One merge request as far as the bot knows it: the wire model plus which parts have been read.
public struct MergeRequestRecord: ItemRecord {
    public var mergeRequest: MergeRequest
    public var known: Set<ReadNeed>
    /// The statuses of the head as `status list` gave them, with their descriptions (which `mr show`
    /// leaves out), when ``ReadNeed/statuses`` was read; they name the sha they are of.
    public var headStatuses: CommitStatuses?
    /// Every head the merge request has had, oldest first, as `mr revisions` gave them, when
    /// ``ReadNeed/revisions`` was read: what binds a `/merge` to the head its giver saw.
    public var revisions: [MergeRequestRevision]?

    public init(
        mergeRequest: MergeRequest, known: Set<ReadNeed>, headStatuses: CommitStatuses? = nil,
        revisions: [MergeRequestRevision]? = nil
    ) {
        self.mergeRequest = mergeRequest
        self.known = known
        self.headStatuses = headStatuses
        self.revisions = revisions
    }

    public var number: Int { mergeRequest.number }
    public var title: String { mergeRequest.title }
    public var updatedAt: Date? { mergeRequest.updatedAt }
}

extension ItemKind {
    /// Merge requests, as rules name them (`on: merge_requests`).
    public static let mergeRequests = ItemKind(rawValue: "merge_requests")
}

extension Item {
    /// A merge request as an item.
    public static func mergeRequest(_ record: MergeRequestRecord) -> Item {
        Item(kind: .mergeRequests, record: record)
    }
}

extension RepositoryState {
    /// The repository's merge requests as read.
    public var mergeRequests: [MergeRequestRecord] {
        get { records(.mergeRequests) }
        set { setRecords(newValue, .mergeRequests) }
    }

    /// The merge request with that number, if known.
    public func mergeRequest(_ number: Int) -> MergeRequestRecord? {
        mergeRequests.first { $0.mergeRequest.number == number }
    }
}

extension ForgeStateRepository {
    /// The repository's merge requests as the file holds them, before derivation.
    public var mergeRequests: [MergeRequest] {
        (collections[.mergeRequests] as? Records<MergeRequestRecord>)?.all.map(\.mergeRequest) ?? []
    }
}

extension MergeRequestRecord {
    /// `records` with each of `rows` (merge requests as a repository listing gave them, heads and
    /// all) put in: into the record of its number, which the cross-repository listing made
    /// without branches or head (a record that read its detail keeps it), or as a record of its own.
    public static func merging(_ rows: [MergeRequest], into records: [MergeRequestRecord]) -> [MergeRequestRecord] {
        var merged = records
        var index: [Int: Int] = [:]
        for (position, record) in merged.enumerated() { index[record.number] = position }
        for row in rows {
            guard let position = index[row.number] else {
                index[row.number] = merged.count
                merged.append(MergeRequestRecord(mergeRequest: row, known: []))
                continue
            }
            guard !merged[position].known.contains(.detail) else { continue }
            let updatedAt = merged[position].mergeRequest.updatedAt
            merged[position].mergeRequest.source = row.source
            merged[position].mergeRequest.targetRef = row.targetRef
            merged[position].mergeRequest.headSHA = row.headSHA
            merged[position].mergeRequest.stackedOn = row.stackedOn
            merged[position].mergeRequest.queued = row.queued
            merged[position].mergeRequest.updatedAt = updatedAt ?? row.updatedAt
        }
        return merged
    }
}
