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

    public init(mergeRequest: MergeRequest, known: Set<ReadNeed>, headStatuses: CommitStatuses? = nil) {
        self.mergeRequest = mergeRequest
        self.known = known
        self.headStatuses = headStatuses
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
