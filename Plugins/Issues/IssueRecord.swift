import Foundation
import GitbayKit
import RuleEngine

/// One issue as far as the bot knows it: the wire model plus which parts have been read.
///
/// A plain `issue list` row carries no labels and no `updated_at`; rather than pretend those are
/// empty, the record says what it knows, and a field that needs more is "unknown" until the
/// planner fetches it.
public struct IssueRecord: ItemRecord {
    public var issue: Issue
    public var known: Set<ReadNeed>

    public init(issue: Issue, known: Set<ReadNeed>) {
        self.issue = issue
        self.known = known
    }

    public var number: Int { issue.number }
    public var title: String { issue.title }
    public var updatedAt: Date? { issue.updatedAt }
}

extension ItemKind {
    /// Issues, as rules name them (`on: issues`).
    public static let issues = ItemKind(rawValue: "issues")
}

extension Item {
    /// An issue as an item.
    public static func issue(_ record: IssueRecord) -> Item {
        Item(kind: .issues, record: record)
    }
}

extension RepositoryState {
    /// The repository's issues as read.
    public var issues: [IssueRecord] {
        get { records(.issues) }
        set { setRecords(newValue, .issues) }
    }
}

extension ForgeStateRepository {
    /// The repository's issues as the file holds them.
    public var issues: [Issue] {
        (collections[.issues] as? Records<IssueRecord>)?.all.map(\.issue) ?? []
    }
}
