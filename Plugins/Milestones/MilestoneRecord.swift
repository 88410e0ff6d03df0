import Foundation
import GitbayKit
import RuleEngine

/// One milestone of a repository, as `milestone list` answers it: a milestone has no number, so
/// its title names it (`owner/name/milestones/v1.2`).
public struct MilestoneRecord: ItemRecord {
    public var milestone: Milestone

    public init(milestone: Milestone) {
        self.milestone = milestone
    }

    /// Milestones have no number; they sort and are named by title.
    public var number: Int { 0 }
    public var key: String { milestone.title }
    public var title: String { milestone.title }
    public var updatedAt: Date? { nil }
    /// A `milestone list` row is all there is to read of a milestone.
    public var known: Set<ReadNeed> { Self.everything }

    private static let everything = Set(ReadNeed.item)
}

extension ItemKind {
    /// Milestones, as rules name them (`on: milestones`).
    public static let milestones = ItemKind(rawValue: "milestones")
}

extension Item {
    /// A milestone as an item.
    public static func milestone(_ record: MilestoneRecord) -> Item {
        Item(kind: .milestones, record: record)
    }
}

extension RepositoryState {
    /// The repository's milestones as read, its organisation's among them.
    public var milestones: [MilestoneRecord] {
        get { records(.milestones) }
        set { setRecords(newValue, .milestones) }
    }
}

extension ItemContext {
    /// The milestone this context is about; `nil` for another kind of item.
    var milestone: Milestone? {
        item.box(as: MilestoneRecord.self)?.record.milestone
    }
}
